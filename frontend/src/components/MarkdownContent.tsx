import Markdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';

const remarkPlugins = [remarkGfm];
// GitHub's schema: no script, style, iframe or event attributes, and only safe URL schemes.
const rehypePlugins = [rehypeSanitize];

const components: Components = {
  // Links in a transcript leave the app; they never get the page's opener.
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" />,
};

/**
 * An item's content as markdown (GFM). Raw HTML in it is not rendered (react-markdown leaves it
 * out unless rehype-raw is used), and rehype-sanitize strips what is left of anything unsafe.
 */
export function MarkdownContent({ content }: { content: string }) {
  return (
    <div className="markdown">
      <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {content}
      </Markdown>
    </div>
  );
}
