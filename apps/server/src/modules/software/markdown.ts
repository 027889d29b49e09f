import { marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/**
 * What an update log entry's HTML may hold: text formatting, lists, tables, code and links. No script, style,
 * frame, form, image or event handler; links only to http(s) and mail addresses, opened apart from the portal.
 */
const POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'ul',
    'ol',
    'li',
    'strong',
    'em',
    'del',
    'code',
    'pre',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  // target and rel are always set by `transformTags`, whatever the Markdown said.
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], ol: ['start'], th: ['align'], td: ['align'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer nofollow' }),
  },
};

/** Markdown as the super administrator writes it → HTML any reader's browser may show as it is. */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: false });
  return sanitizeHtml(html, POLICY).trim();
}
