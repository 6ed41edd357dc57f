import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { EngineClient } from './engine/client';
import './styles.css';

// One engine worker for the page's lifetime (outside React, so StrictMode's double
// effects cannot dispose it).
const engine = new EngineClient();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App engine={engine} createEngine={() => new EngineClient()} />
    </StrictMode>,
  );
}
