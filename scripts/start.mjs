// `npm start`: install what is missing, build, and serve the built app.
import { run, step } from './lib.mjs';

run('node', ['scripts/setup.mjs']);
run('node', ['scripts/build.mjs']);
const port = process.env.PORT ?? '5173';
step(`serving dist/ — open http://localhost:${port}/`);
run('npx', ['vite', 'preview', '--config', 'web/vite.config.ts', '--port', port, '--strictPort', '--host', '0.0.0.0']);
