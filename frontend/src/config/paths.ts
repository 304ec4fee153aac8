/** The route table of the app (docs/product-spec.md §2). */
export const paths = {
  home: '/',
  signIn: '/sign-in',
  signUp: '/sign-up',
  discovery: '/youtube-discovery',
  uploads: '/download-mp3',
  transcripts: '/transcripts',
  convertPdf: '/convert-pdf',
  vault: '/vault',
  settings: '/settings',
  sources: '/sources',
  downloads: '/downloads',
} as const;

/** Link to one Vault item, opened in the detail view. */
export function vaultItemHref(itemId: string): string {
  return `${paths.vault}?item=${encodeURIComponent(itemId)}`;
}
