import { ImageOff } from 'lucide-react';
import Markdown, { defaultUrlTransform, type Components, type UrlTransform } from 'react-markdown';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';

const remarkPlugins = [remarkGfm];

// GitHub's schema: no script, style, iframe or event attributes, and only safe URL schemes; an
// image may also be inline (`data:`), which loads nothing from anywhere.
const schema = {
  ...defaultSchema,
  protocols: { ...defaultSchema.protocols, src: [...(defaultSchema.protocols?.src ?? []), 'data'] },
};
const rehypePlugins: Parameters<typeof Markdown>[0]['rehypePlugins'] = [[rehypeSanitize, schema]];

const INLINE_IMAGE = /^data:image\/[a-z0-9.+-]+[;,]/i;

/** Whether an image may be loaded: inline (`data:image/…`) or from this origin, nothing else. */
export function isLoadableImageSource(src: string): boolean {
  if (INLINE_IMAGE.test(src)) return true;
  try {
    return new URL(src, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

// react-markdown drops `data:` URLs by default; keep them for images only.
const urlTransform: UrlTransform = (url, key, node) =>
  key === 'src' && node.tagName === 'img' && INLINE_IMAGE.test(url) ? url : defaultUrlTransform(url);

const components: Components = {
  // Links in a transcript leave the app; they never get the page's opener.
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" />,
  // A remote image would tell its server who reads the item, and when (security review F18): it
  // becomes a link, named by its alt text, that the reader may follow.
  img: ({ node: _node, src, alt, ...props }) => {
    if (typeof src !== 'string' || !src) return alt ? <span>{alt}</span> : null;
    if (isLoadableImageSource(src)) return <img {...props} src={src} alt={alt ?? ''} loading="lazy" />;
    return (
      <a
        href={src}
        className="markdown-remote-image"
        target="_blank"
        rel="noopener noreferrer nofollow"
        referrerPolicy="no-referrer"
        title={`Remote image, not loaded: ${src}`}
      >
        <ImageOff size={14} aria-hidden="true" />
        {alt || src}
      </a>
    );
  },
};

/**
 * An item's content as markdown (GFM). Raw HTML in it is not rendered (react-markdown leaves it
 * out unless rehype-raw is used), rehype-sanitize strips what is left of anything unsafe, and
 * images load only when inline or from this origin.
 */
export function MarkdownContent({ content }: { content: string }) {
  return (
    <div className="markdown">
      <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} urlTransform={urlTransform}>
        {content}
      </Markdown>
    </div>
  );
}
