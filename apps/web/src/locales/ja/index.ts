// This language's namespaces, each fetched when first needed. A module per language keeps the list of every
// language's files out of the first page's script.
export default import.meta.glob<{ default: Record<string, unknown> }>('./*.json');
