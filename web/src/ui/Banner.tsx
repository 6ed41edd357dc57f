// A dismissible message about something that went wrong (role="alert").
/** What a message is about; a newer message about the same thing replaces the older. */
export type BannerSource = 'link' | 'file' | 'engine';

export interface BannerMessage {
  id: number;
  source: BannerSource;
  title: string;
  lines: string[];
  footer?: string;
}

export function Banner({ message, onDismiss }: { message: BannerMessage; onDismiss: () => void }) {
  return (
    <div role="alert" className="banner">
      <div className="banner-text">
        <strong>{message.title}</strong>
        <ul>
          {message.lines.map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </ul>
        {message.footer ? <p>{message.footer}</p> : null}
      </div>
      <button type="button" className="small" onClick={onDismiss} aria-label={`Dismiss: ${message.title}`}>
        Dismiss
      </button>
    </div>
  );
}
