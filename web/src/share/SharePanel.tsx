// The share link of the scenario being edited, readable and copyable.
import { useRef, useState } from 'react';

export function SharePanel({ url }: { url: string }) {
  const field = useRef<HTMLInputElement>(null);
  const [note, setNote] = useState('');
  const [copiedUrl, setCopiedUrl] = useState<string | null>(null);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(url);
      setCopiedUrl(url);
      setNote('Link copied');
    } catch {
      field.current?.focus();
      field.current?.select();
      setCopiedUrl(url);
      setNote('Link selected: press Ctrl+C (⌘C) to copy it');
    }
  };
  return (
    <div className="share">
      <div className="share-head">
        <label htmlFor="share-link">Share link</label>
        <span role="status" className="note" data-testid="share-status">
          {copiedUrl === url ? note : ''}
        </span>
      </div>
      <div className="share-row">
        <input
          ref={field}
          id="share-link"
          type="text"
          readOnly
          value={url}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={() => void copy()}>
          Copy link
        </button>
      </div>
    </div>
  );
}
