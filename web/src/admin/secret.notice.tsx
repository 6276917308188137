import { useState } from 'react';

/**
 * A secret the API shows once (a new key, a webhook's signing secret): selectable, copyable,
 * and said to be shown once.
 */
export function SecretNotice({ title, secret, onDone }: { title: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      // No clipboard access (an insecure origin, a denied permission): the text stays selectable.
      setCopied(false);
    }
  }
  return (
    <div className="secret" role="status">
      <p>
        <strong>{title}</strong> It is shown only now: store it before you leave this page.
      </p>
      <code className="secret-value">{secret}</code>
      <div className="actions">
        <button type="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
