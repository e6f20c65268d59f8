import type { Preview } from '@shortlinks/contract';

/**
 * The link-preview bots (issue #30): the fetchers that chat apps and social networks send to
 * unfurl a shared link. They get the link's preview page (Open Graph and Twitter card tags)
 * instead of the redirect; people, and every other bot, get the redirect as before. One list,
 * here, matched ignoring case against the User-Agent.
 *
 * iMessage and other Apple apps unfurl with a User-Agent naming `facebookexternalhit` and
 * `Twitterbot`; Signal fetches with a plain browser's and cannot be told apart. In-app browsers
 * that people browse with (LINE, Snapchat, KakaoTalk, Teams) are left out on purpose.
 */
const PREVIEW_BOTS =
  /Slackbot|Slack-ImgProxy|Twitterbot|facebookexternalhit|Facebot|meta-externalagent|LinkedInBot|Discordbot|WhatsApp\/|TelegramBot|Applebot|SkypeUriPreview|MicrosoftPreview|redditbot|Pinterestbot|Embedly|Iframely|vkShare|Mastodon\/|Bluesky Cardyb|Cardyb|Tumblr|Google-PageRenderer|XING-contenttabreceiver|Mattermost-Bot|RocketChat|Synapse|Discourse Onebox/i;

export function isPreviewBot(userAgent: string | undefined): boolean {
  return userAgent !== undefined && userAgent.length <= 2048 && PREVIEW_BOTS.test(userAgent);
}

/** Text for HTML: element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

/**
 * The page a preview bot gets: the preview's title, description and image as Open Graph and
 * Twitter card tags, every value escaped. It names no destination: a password-protected link's
 * preview gives away nothing the owner did not write into it.
 */
export function previewPage(preview: Preview, shortUrl: string): string {
  const tags: string[] = [];
  const meta = (attribute: 'property' | 'name', key: string, value: string) =>
    tags.push(`<meta ${attribute}="${key}" content="${escapeHtml(value)}">`);
  meta('property', 'og:type', 'website');
  meta('property', 'og:url', shortUrl);
  if (preview.title !== undefined) {
    meta('property', 'og:title', preview.title);
    meta('name', 'twitter:title', preview.title);
  }
  if (preview.description !== undefined) {
    meta('property', 'og:description', preview.description);
    meta('name', 'twitter:description', preview.description);
  }
  if (preview.image_url !== undefined) {
    meta('property', 'og:image', preview.image_url);
    meta('name', 'twitter:image', preview.image_url);
  }
  meta('name', 'twitter:card', preview.image_url === undefined ? 'summary' : 'summary_large_image');
  const title = escapeHtml(preview.title ?? shortUrl);
  const description = preview.description === undefined ? '' : `<p>${escapeHtml(preview.description)}</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${title}</title>
${tags.join('\n')}
</head><body><h1>${title}</h1>${description}</body></html>
`;
}
