import { Fragment } from 'react';

const URL_RE = /(https?:\/\/[^\s<>"']+)/g;

/** Mail text with its URLs as clickable links (confirmation and reset mails). */
export function MailText({ text }: { text: string }) {
  const parts = text.split(URL_RE);
  return (
    <div className="mail-text">
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={part} rel="noreferrer">
            {part}
          </a>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </div>
  );
}
