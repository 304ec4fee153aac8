// The Vault of the mock gateway: docs/vault-api.md from memory, one archive per user.
//
// Items, their content and (for AUDIO) timed segments; the list with every filter, full-text
// search (words, "quoted phrases", OR, -excluded) with highlights and audio matches; metadata,
// content, delete, suggestions; exports as signed links (HMAC, 10 minutes, no bearer header)
// that download real files: markdown, txt, json, srt, vtt, and a real zip for bulk exports;
// stats, tags, the starter tag sets, syllabus sections, batch processing and /api/vault/save.
// Every change sends libraryUpdate and statsUpdate to the owner's sockets.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';

export const SOURCE_TYPES = ['AUDIO', 'PDF', 'PDF_SOURCE', 'WEBSITE', 'WEBSITE_CONTENT', 'IMAGE', 'TEXT'];
const FORMATS = ['markdown', 'txt', 'json', 'srt', 'vtt'];
const EXTENSIONS = { markdown: 'md', txt: 'txt', json: 'json', srt: 'srt', vtt: 'vtt' };
const CONTENT_TYPES = {
  markdown: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
};
const LINK_LIFETIME_MS = 10 * 60_000;
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const STARTER_TAGS = ['idea', 'reference', 'research', 'how-to', 'to-review', 'favourite'];
const GWTH_TAGS = ['gwth-1', 'gwth-2', 'gwth-3', 'gwth-4', 'gwth-5'];
const STOPWORDS = new Set(
  'about after again also and are back been before being both but can could does down each even every from have here into just keep like looking make more most much must only other over really said same should some still such than that their them then there these they this those through today very want well were what when where which while will with would your you'.split(
    ' ',
  ),
);
/** Spoken words per second, for the segments' fake timing. */
const WORDS_PER_SECOND = 2.6;

class HttpError extends Error {
  constructor(status, message, code) {
    super(message);
    this.status = status;
    this.code = code ?? { 400: 'BAD_REQUEST', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 413: 'PAYLOAD_TOO_LARGE' }[status] ?? 'ERROR';
  }
}
const badRequest = (message) => new HttpError(400, message);
const notFound = (message = 'Transcript not found') => new HttpError(404, message);

const escapeHtml = (text) => text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]);
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

// ---------- zip (deflate, or stored when that is smaller) ----------
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A zip archive of `files` ([{name, data: Buffer}]), readable by unzip, Python's zipfile and the OS. */
export function zipArchive(files, date = new Date()) {
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2);
  const day = ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name, 'utf8');
    const deflated = deflateRawSync(file.data);
    const stored = deflated.length >= file.data.length;
    const body = stored ? file.data : deflated;
    const crc = crc32(file.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(stored ? 0 : 8, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(day, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(file.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(stored ? 0 : 8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(day, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(file.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

// ---------- text helpers ----------
/** The content without markdown marks, for txt exports and segments. */
function plainText(markdown) {
  return markdown
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/^\s*[-*+]\s+/gm, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
}

/** Timed segments of a spoken transcript: one per sentence, timed by its word count. */
export function segmentsOf(content) {
  const body = plainText(content.replace(/^#\s+.*$/m, ''));
  const sentences = body.split(/(?<=[.!?])\s+|\n+/).map((sentence) => sentence.trim()).filter(Boolean);
  let start = 0;
  return sentences.map((text) => {
    const seconds = Math.max(1, text.split(/\s+/).length / WORDS_PER_SECOND);
    const segment = { start: Math.round(start * 10) / 10, end: Math.round((start + seconds) * 10) / 10, text };
    start += seconds;
    return segment;
  });
}

const slug = (title) =>
  title
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 80) || 'transcript';

function timestamp(seconds, separator) {
  const ms = Math.round(seconds * 1000);
  const pad = (value, size = 2) => String(value).padStart(size, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

// ---------- search ----------
/** `q` as groups (OR) of required terms plus excluded terms. Never fails: odd input just matches less. */
export function parseQuery(q) {
  const groups = [[]];
  const excluded = [];
  for (const match of String(q).matchAll(/(-?)"([^"]*)"?|(\S+)/g)) {
    const negative = match[1] === '-' || (match[3]?.startsWith('-') && match[3].length > 1);
    const raw = match[2] ?? (match[3]?.startsWith('-') ? match[3].slice(1) : match[3]);
    if (match[3] === 'OR') {
      if (groups.at(-1).length > 0) groups.push([]);
      continue;
    }
    const text = raw.toLowerCase().replace(/[^\p{L}\p{N}\s'-]/gu, ' ').replace(/\s+/g, ' ').trim();
    if (!text) continue;
    (negative ? excluded : groups.at(-1)).push(text);
  }
  return { groups: groups.filter((group) => group.length > 0), excluded };
}

const termPattern = (term, flags = 'giu') => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term).replace(/ /g, '\\s+')}(?![\\p{L}\\p{N}])`, flags);
const count = (text, term) => (text.match(termPattern(term)) ?? []).length;

/** The score of an item for a parsed query: 0 when it does not match. */
function scoreOf(record, query) {
  const title = record.title;
  const body = record.content;
  if (query.excluded.some((term) => count(title, term) + count(body, term) > 0)) return 0;
  if (query.groups.length === 0) return 1;
  let best = 0;
  for (const group of query.groups) {
    let score = 0;
    for (const term of group) {
      const hits = count(title, term) * 5 + count(body, term);
      if (hits === 0) {
        score = 0;
        break;
      }
      score += hits;
    }
    best = Math.max(best, score);
  }
  return best;
}

function markTerms(escaped, terms) {
  let result = escaped;
  for (const term of terms) {
    result = result.replace(termPattern(escapeHtml(term)), (hit) => `<mark>${hit}</mark>`);
  }
  return result.replace(/<\/mark><mark>/g, '');
}

/** Up to 3 snippets around the matched words, HTML-escaped, the words in <mark>. */
function highlightsOf(record, terms) {
  const text = plainText(record.content).replace(/\s+/g, ' ').trim();
  const windows = [];
  for (const term of terms) {
    for (const hit of text.matchAll(termPattern(term))) {
      const from = Math.max(0, hit.index - 60);
      const to = Math.min(text.length, hit.index + hit[0].length + 60);
      if (windows.some((window) => from < window.to && to > window.from)) continue;
      windows.push({ from, to });
      if (windows.length >= 3) break;
    }
    if (windows.length >= 3) break;
  }
  windows.sort((a, b) => a.from - b.from);
  const snippets = windows.map(({ from, to }) => {
    let start = from;
    let end = to;
    while (start > 0 && /\S/.test(text[start - 1])) start -= 1;
    while (end < text.length && /\S/.test(text[end])) end += 1;
    return markTerms(escapeHtml(text.slice(start, end).trim()), terms);
  });
  if (snippets.length === 0 && terms.some((term) => count(record.title, term) > 0)) snippets.push(markTerms(escapeHtml(record.title), terms));
  return snippets;
}

// ---------- the Vault ----------
/**
 * `sourceTypeOf(userId, path)` says what a saved path is (the conversion mock knows its converted
 * files: AUDIO for a transcript's markdown, PDF for a PDF's); null falls back to PDF for a path
 * ending .pdf and TEXT otherwise.
 */
export function createVault({ toUser, secret = randomBytes(32), sourceTypeOf = () => null }) {
  /** userId -> Map(id -> record): the item's fields plus content, segments, processed, userId. */
  const archives = new Map();
  /** userId -> Map(lowercase name -> {id, name}) */
  const tagRegistries = new Map();
  /** userId -> [{id, title, description, position}] */
  const sectionLists = new Map();

  const archiveOf = (userId) => {
    if (!archives.has(userId)) archives.set(userId, new Map());
    return archives.get(userId);
  };
  const registryOf = (userId) => {
    if (!tagRegistries.has(userId)) tagRegistries.set(userId, new Map());
    return tagRegistries.get(userId);
  };
  const sectionsOf = (userId) => {
    if (!sectionLists.has(userId)) sectionLists.set(userId, []);
    return sectionLists.get(userId);
  };

  function view(record) {
    const { content: _content, segments: _segments, processed: _processed, userId: _userId, ...item } = record;
    return { ...item, tags: [...item.tags] };
  }

  function registerTags(userId, tags) {
    const registry = registryOf(userId);
    let created = 0;
    for (const name of tags) {
      if (registry.has(name.toLowerCase())) continue;
      registry.set(name.toLowerCase(), { id: randomUUID(), name });
      created += 1;
    }
    return created;
  }

  function statsOf(userId) {
    const items = [...archiveOf(userId).values()];
    const rated = items.filter((item) => item.rating);
    const exported = items.filter((item) => item.lastExported);
    const now = new Date();
    const tally = (list, key, keys) => {
      const counts = Object.fromEntries((keys ?? []).map((name) => [name, 0]));
      for (const item of list) if (item[key] !== null && item[key] !== undefined) counts[item[key]] = (counts[item[key]] ?? 0) + 1;
      return counts;
    };
    return {
      totalTranscripts: items.length,
      totalDuration: Math.round(items.reduce((sum, item) => sum + (item.duration ?? 0), 0) * 10) / 10,
      storageUsed: items.reduce((sum, item) => sum + Buffer.byteLength(item.content), 0),
      avgRating: rated.length ? Math.round((rated.reduce((sum, item) => sum + item.rating, 0) / rated.length) * 10) / 10 : 0,
      thisMonth: items.filter((item) => {
        const created = new Date(item.createdAt);
        return created.getUTCFullYear() === now.getUTCFullYear() && created.getUTCMonth() === now.getUTCMonth();
      }).length,
      export: {
        totalExported: exported.length,
        topRatedCount: items.filter((item) => (item.rating ?? 0) >= 4).length,
        byGwthLevel: tally(exported, 'gwthLevel'),
        bySourceType: tally(exported, 'sourceType'),
      },
      distributions: {
        rating: tally(items, 'rating', ['1', '2', '3', '4', '5']),
        gwthLevel: tally(items, 'gwthLevel', ['1', '2', '3', '4', '5']),
        sourceType: tally(items, 'sourceType'),
      },
    };
  }

  function announce(userId, type, records) {
    for (const record of records) toUser(userId, 'libraryUpdate', { type, transcript: { id: record.id, title: record.title } });
    toUser(userId, 'statsUpdate', statsOf(userId));
  }

  function create(userId, fields) {
    const content = String(fields.content ?? '');
    const segments = fields.sourceType === 'AUDIO' ? segmentsOf(content) : [];
    const record = {
      id: randomUUID(),
      title: fields.title,
      author: fields.author ?? '',
      createdAt: fields.createdAt ?? new Date().toISOString(),
      lastExported: null,
      isStarred: false,
      gwthLevel: null,
      sourceType: fields.sourceType,
      rating: null,
      tags: fields.tags ?? [],
      duration: fields.duration ?? (segments.length ? segments.at(-1).end : null),
      sectionId: null,
      fileName: fields.fileName ?? null,
      sourceUrl: fields.sourceUrl ?? null,
      content,
      segments,
      processed: fields.processed ?? true,
      userId,
    };
    archiveOf(userId).set(record.id, record);
    registerTags(userId, record.tags);
    return record;
  }

  /** A transcription finished: its item enters the Vault. */
  function addTranscript(userId, { title, content, fileName }) {
    const record = create(userId, { title, content, fileName, sourceType: 'AUDIO', processed: true });
    announce(userId, 'created', [record]);
    return view(record);
  }

  function suggestionsOf(userId, record) {
    const counts = new Map();
    for (const word of plainText(record.content).toLowerCase().match(/\p{L}{4,}/gu) ?? []) {
      if (STOPWORDS.has(word)) continue;
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    const have = new Set(record.tags.map((tag) => tag.toLowerCase()));
    const known = [...registryOf(userId).values()].map((tag) => tag.name).filter((name) => counts.has(name.toLowerCase()));
    const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([word]) => word);
    const suggestedTags = [...new Set([...known, ...ranked])].filter((tag) => !have.has(tag.toLowerCase())).slice(0, 5);
    const words = plainText(record.content).split(/\s+/).filter(Boolean).length;
    const suggestedRating = words < 15 ? 2 : words < 40 ? 3 : words < 120 ? 4 : 5;
    return { suggestedTags, suggestedRating };
  }

  // ---------- request helpers ----------
  async function readJson(req) {
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) throw new HttpError(413, 'Request body too large');
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    if (!text.trim()) throw badRequest('A JSON body is required');
    try {
      return JSON.parse(text);
    } catch {
      throw badRequest('The body is not valid JSON');
    }
  }
  function onlyFields(body, allowed) {
    if (!isObject(body)) throw badRequest('The body must be a JSON object');
    for (const key of Object.keys(body)) if (!allowed.includes(key)) throw badRequest(`Unknown field "${key}"`);
    return body;
  }
  const levelOrNull = (value, field) => {
    if (value === null) return null;
    if (!Number.isInteger(value) || value < 1 || value > 5) throw badRequest(`${field} must be 1 to 5 or null`);
    return value;
  };
  function recordOf(userId, id) {
    const record = archiveOf(userId).get(id);
    if (!record) throw notFound();
    return record;
  }

  // ---------- signed export links ----------
  const sign = (payload) => createHmac('sha256', secret).update(payload).digest('base64url');
  function exportLink(userId, ids, format, filename) {
    const payload = Buffer.from(JSON.stringify({ u: userId, ids, f: format, n: filename, exp: Date.now() + LINK_LIFETIME_MS })).toString('base64url');
    return { downloadUrl: `/api/library/export/files/${payload}.${sign(payload)}`, filename };
  }
  function readLink(token) {
    const [payload, signature] = token.split('.');
    const expected = payload ? sign(payload) : '';
    const given = Buffer.from(signature ?? '');
    if (!payload || given.length !== Buffer.byteLength(expected) || !timingSafeEqual(given, Buffer.from(expected))) {
      throw new HttpError(403, 'This download link is not valid');
    }
    const link = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (Date.now() > link.exp) throw new HttpError(403, 'This download link has expired');
    return link;
  }

  function render(record, format) {
    if (format === 'markdown') return record.content;
    if (format === 'txt') return `${plainText(record.content).trim()}\n`;
    if (format === 'json') return `${JSON.stringify({ ...view(record), content: record.content }, null, 2)}\n`;
    const segments = record.segments.length ? record.segments : segmentsOf(record.content);
    if (format === 'srt') {
      return segments.map((segment, index) => `${index + 1}\n${timestamp(segment.start, ',')} --> ${timestamp(segment.end, ',')}\n${segment.text}\n`).join('\n');
    }
    return `WEBVTT\n\n${segments.map((segment) => `${timestamp(segment.start, '.')} --> ${timestamp(segment.end, '.')}\n${segment.text}\n`).join('\n')}`;
  }
  const fileNameOf = (record, format) => `${slug(record.title)}.${EXTENSIONS[format]}`;

  function checkFormat(format, records) {
    if (!FORMATS.includes(format)) throw badRequest(`format must be one of ${FORMATS.join(', ')}`);
    if ((format === 'srt' || format === 'vtt') && records.some((record) => record.sourceType !== 'AUDIO')) {
      throw badRequest(`format ${format} is only for AUDIO items`);
    }
  }

  // ---------- the list ----------
  const LIST_KEYS = ['page', 'limit', 'sortBy', 'sortOrder', 'q', 'tags', 'sourceType', 'isStarred', 'rating', 'minRating', 'gwthLevel', 'exported', 'createdAfter', 'createdBefore', 'sectionId', 'path'];
  const SORTS = ['createdAt', 'title', 'rating', 'lastExported', 'relevance'];

  function listParams(params) {
    for (const key of new Set(params.keys())) if (!LIST_KEYS.includes(key)) throw badRequest(`Unknown query parameter "${key}"`);
    const single = (key) => {
      const values = params.getAll(key);
      if (values.length > 1) throw badRequest(`${key} may be given once`);
      return values[0] ?? null;
    };
    const integer = (key, value, min, max) => {
      const number = Number(value);
      if (!/^\d+$/.test(value) || number < min || number > max) throw badRequest(`${key} must be ${min} to ${max}`);
      return number;
    };
    const bool = (key) => {
      const value = single(key);
      if (value === null) return null;
      if (value !== 'true' && value !== 'false') throw badRequest(`${key} must be true or false`);
      return value === 'true';
    };
    const date = (key) => {
      const value = single(key);
      if (value === null) return null;
      const ok = /^\d{4}-\d{2}-\d{2}$/.test(value) || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(value);
      const time = Date.parse(value);
      if (!ok || Number.isNaN(time)) throw badRequest(`${key} must be an RFC 3339 date-time or YYYY-MM-DD`);
      return time;
    };
    const q = single('q');
    const sortBy = single('sortBy') ?? (q ? 'relevance' : 'createdAt');
    if (!SORTS.includes(sortBy)) throw badRequest(`sortBy must be one of ${SORTS.join(', ')}`);
    if (sortBy === 'relevance' && !q) throw badRequest('sortBy relevance needs q');
    const sortOrder = single('sortOrder') ?? 'desc';
    if (sortOrder !== 'asc' && sortOrder !== 'desc') throw badRequest('sortOrder must be asc or desc');
    const sourceType = params.getAll('sourceType');
    const stranger = sourceType.find((type) => !SOURCE_TYPES.includes(type));
    if (stranger) throw badRequest(`sourceType must be one of ${SOURCE_TYPES.join(', ')}`);
    const minRating = single('minRating');
    return {
      page: single('page') === null ? 1 : integer('page', single('page'), 1, 1_000_000),
      limit: single('limit') === null ? 20 : integer('limit', single('limit'), 1, 100),
      sortBy,
      sortOrder,
      q,
      tags: params.getAll('tags').map((tag) => tag.toLowerCase()),
      sourceType,
      isStarred: bool('isStarred'),
      rating: params.getAll('rating').map((value) => integer('rating', value, 1, 5)),
      minRating: minRating === null ? null : integer('minRating', minRating, 1, 5),
      gwthLevel: params.getAll('gwthLevel').map((value) => integer('gwthLevel', value, 1, 5)),
      exported: bool('exported'),
      createdAfter: date('createdAfter'),
      createdBefore: date('createdBefore'),
      sectionId: single('sectionId'),
      path: single('path'),
    };
  }

  function list(userId, params) {
    const filter = listParams(params);
    const query = filter.q ? parseQuery(filter.q) : null;
    const scored = [];
    for (const record of archiveOf(userId).values()) {
      const created = Date.parse(record.createdAt);
      const tags = record.tags.map((tag) => tag.toLowerCase());
      if (!filter.tags.every((tag) => tags.includes(tag))) continue;
      if (filter.sourceType.length && !filter.sourceType.includes(record.sourceType)) continue;
      if (filter.isStarred !== null && record.isStarred !== filter.isStarred) continue;
      if (filter.rating.length && !filter.rating.includes(record.rating)) continue;
      if (filter.minRating !== null && (record.rating ?? 0) < filter.minRating) continue;
      if (filter.gwthLevel.length && !filter.gwthLevel.includes(record.gwthLevel)) continue;
      if (filter.exported !== null && Boolean(record.lastExported) !== filter.exported) continue;
      if (filter.createdAfter !== null && created < filter.createdAfter) continue;
      if (filter.createdBefore !== null && created >= filter.createdBefore) continue;
      if (filter.sectionId === 'none' ? record.sectionId !== null : filter.sectionId !== null && record.sectionId !== filter.sectionId) continue;
      if (filter.path !== null && record.fileName !== filter.path) continue;
      const score = query ? scoreOf(record, query) : 1;
      if (score > 0) scored.push({ record, score });
    }
    const direction = filter.sortOrder === 'asc' ? 1 : -1;
    const valueOf = (record) =>
      filter.sortBy === 'title' ? record.title.toLowerCase() : filter.sortBy === 'rating' ? record.rating : filter.sortBy === 'lastExported' ? record.lastExported : record.createdAt;
    scored.sort((a, b) => {
      if (filter.sortBy === 'relevance') return direction * (a.score - b.score) || b.record.createdAt.localeCompare(a.record.createdAt);
      const left = valueOf(a.record);
      const right = valueOf(b.record);
      // Items without a value sort last either way.
      if (left === null || left === undefined) return right === null || right === undefined ? 0 : 1;
      if (right === null || right === undefined) return -1;
      return direction * (left < right ? -1 : left > right ? 1 : 0) || b.record.createdAt.localeCompare(a.record.createdAt);
    });
    const start = (filter.page - 1) * filter.limit;
    const terms = query ? [...new Set(query.groups.flat())] : [];
    const data = scored.slice(start, start + filter.limit).map(({ record }) => {
      const item = view(record);
      if (!query) return item;
      item.highlights = highlightsOf(record, terms);
      if (record.sourceType === 'AUDIO') {
        item.matches = record.segments
          .filter((segment) => terms.some((term) => count(segment.text, term) > 0))
          .slice(0, 5)
          .map(({ start: from, end, text }) => ({ start: from, end, text }));
      }
      return item;
    });
    return { data, meta: { page: filter.page, limit: filter.limit, total: scored.length, hasMore: start + filter.limit < scored.length } };
  }

  // ---------- routes ----------
  /**
   * Answers a Vault route for `user`: {status, body} for JSON, {status, file} for a download, or
   * null when the route is not the Vault's. Throws HttpError for 4xx.
   */
  async function route(req, url, user) {
    const { method } = req;
    const path = url.pathname;
    const userId = user?.id;

    // The signed download link needs no bearer header.
    const download = path.match(/^\/api\/library\/export\/files\/([\w.-]+)$/);
    if (method === 'GET' && download) {
      const link = readLink(download[1]);
      const archive = archiveOf(link.u);
      const records = link.ids.map((id) => archive.get(id)).filter(Boolean);
      if (records.length === 0) throw notFound();
      if (link.ids.length === 1 && !link.n.endsWith('.zip')) {
        return { status: 200, file: { name: link.n, type: CONTENT_TYPES[link.f], data: Buffer.from(render(records[0], link.f), 'utf8') } };
      }
      const used = new Map();
      const entries = records.map((record) => {
        const base = fileNameOf(record, link.f);
        const seen = used.get(base) ?? 0;
        used.set(base, seen + 1);
        const name = seen === 0 ? base : base.replace(/(\.\w+)$/, `-${seen + 1}$1`);
        return { name, data: Buffer.from(render(record, link.f), 'utf8') };
      });
      return { status: 200, file: { name: link.n, type: 'application/zip', data: zipArchive(entries) } };
    }
    if (!path.startsWith('/api/library/') && path !== '/api/vault/save') return null;
    if (!user) return null;

    if (method === 'GET' && path === '/api/library/transcripts') return { status: 200, body: list(userId, url.searchParams) };

    const itemRoute = path.match(/^\/api\/library\/transcripts\/([^/]+)(?:\/(content|metadata|suggestions|export))?$/);
    if (itemRoute) {
      const [, id, part] = itemRoute;
      const record = recordOf(userId, decodeURIComponent(id));
      if (!part && method === 'GET') return { status: 200, body: { data: view(record) } };
      if (!part && method === 'DELETE') {
        archiveOf(userId).delete(record.id);
        announce(userId, 'deleted', [record]);
        return { status: 200, body: { data: { id: record.id, deleted: true } } };
      }
      if (!part && method === 'PATCH') {
        const body = onlyFields(await readJson(req), ['rating']);
        if (!('rating' in body)) throw badRequest('rating is required');
        if (!Number.isInteger(body.rating) || body.rating < 1 || body.rating > 5) throw badRequest('rating must be 1 to 5');
        record.rating = body.rating;
        announce(userId, 'updated', [record]);
        return { status: 200, body: { data: view(record) } };
      }
      if (part === 'content' && method === 'GET') return { status: 200, body: { data: { content: record.content } } };
      if (part === 'content' && method === 'PUT') {
        const body = onlyFields(await readJson(req), ['content']);
        if (typeof body.content !== 'string') throw badRequest('content must be a string');
        record.content = body.content;
        if (record.sourceType === 'AUDIO') record.segments = segmentsOf(body.content);
        announce(userId, 'updated', [record]);
        return { status: 200, body: { data: view(record) } };
      }
      if (part === 'metadata' && method === 'PUT') {
        const body = onlyFields(await readJson(req), ['title', 'author', 'isStarred', 'gwthLevel', 'rating', 'tags', 'sectionId']);
        const changes = {};
        if ('title' in body) {
          if (typeof body.title !== 'string' || !body.title.trim() || body.title.length > 500) throw badRequest('title must be 1 to 500 characters');
          changes.title = body.title.trim();
        }
        if ('author' in body) {
          if (typeof body.author !== 'string' || body.author.length > 200) throw badRequest('author must be at most 200 characters');
          changes.author = body.author.trim();
        }
        if ('isStarred' in body) {
          if (typeof body.isStarred !== 'boolean') throw badRequest('isStarred must be true or false');
          changes.isStarred = body.isStarred;
        }
        if ('gwthLevel' in body) changes.gwthLevel = levelOrNull(body.gwthLevel, 'gwthLevel');
        if ('rating' in body) changes.rating = levelOrNull(body.rating, 'rating');
        if ('tags' in body) {
          if (!Array.isArray(body.tags) || body.tags.some((tag) => typeof tag !== 'string' || !tag.trim() || tag.length > 50)) {
            throw badRequest('tags must be a list of 1 to 50 character names');
          }
          const seen = new Set();
          changes.tags = body.tags.map((tag) => tag.trim()).filter((tag) => !seen.has(tag.toLowerCase()) && seen.add(tag.toLowerCase()));
        }
        if ('sectionId' in body) {
          if (body.sectionId !== null && !sectionsOf(userId).some((section) => section.id === body.sectionId)) throw badRequest('sectionId names no section');
          changes.sectionId = body.sectionId;
        }
        Object.assign(record, changes);
        if (changes.tags) registerTags(userId, changes.tags);
        announce(userId, 'updated', [record]);
        return { status: 200, body: { data: view(record) } };
      }
      if (part === 'suggestions' && method === 'GET') return { status: 200, body: { data: suggestionsOf(userId, record) } };
      if (part === 'export' && method === 'POST') {
        const body = onlyFields(await readJson(req), ['format']);
        checkFormat(body.format, [record]);
        record.lastExported = new Date().toISOString();
        announce(userId, 'updated', [record]);
        return { status: 200, body: { data: exportLink(userId, [record.id], body.format, fileNameOf(record, body.format)) } };
      }
      return null;
    }

    if (method === 'POST' && path === '/api/library/export/bulk') {
      const body = onlyFields(await readJson(req), ['ids', 'format']);
      if (!Array.isArray(body.ids) || body.ids.length < 1 || body.ids.length > 500 || body.ids.some((id) => typeof id !== 'string')) {
        throw badRequest('ids must be a list of 1 to 500 ids');
      }
      const records = [...new Set(body.ids)].map((id) => recordOf(userId, id));
      checkFormat(body.format, records);
      const now = new Date().toISOString();
      for (const record of records) record.lastExported = now;
      announce(userId, 'updated', records);
      return { status: 200, body: { data: exportLink(userId, records.map((record) => record.id), body.format, `scribevault-vault-${now.slice(0, 10)}.zip`) } };
    }
    if (method === 'POST' && path === '/api/library/process/batch') {
      const raw = url.searchParams.get('limit') ?? '50';
      const limit = Number(raw);
      if (!/^\d+$/.test(raw) || limit < 1 || limit > 500) throw badRequest('limit must be 1 to 500');
      const waiting = [...archiveOf(userId).values()].filter((record) => !record.processed);
      const batch = waiting.slice(0, limit);
      for (const record of batch) {
        record.processed = true;
        if (record.tags.length === 0) {
          record.tags = suggestionsOf(userId, record).suggestedTags.slice(0, 3);
          registerTags(userId, record.tags);
        }
      }
      if (batch.length) announce(userId, 'updated', batch);
      return { status: 200, body: { data: { processed: batch.length, remaining: waiting.length - batch.length } } };
    }
    if (method === 'POST' && path === '/api/vault/save') {
      const body = onlyFields(await readJson(req), ['files']);
      if (!Array.isArray(body.files) || body.files.length < 1 || body.files.length > 100) throw badRequest('files must hold 1 to 100 files');
      body.files.forEach((file, index) => {
        onlyFields(file, ['title', 'content', 'path']);
        if (typeof file.title !== 'string' || !file.title.trim()) throw badRequest(`files[${index}].title is required`);
        if (typeof file.content !== 'string') throw badRequest(`files[${index}].content must be a string`);
        if (file.path !== undefined && file.path !== null && typeof file.path !== 'string') throw badRequest(`files[${index}].path must be a string`);
      });
      const records = body.files.map((file) =>
        create(userId, {
          title: file.title.trim(),
          content: file.content,
          fileName: file.path ?? null,
          sourceType: sourceTypeOf(userId, file.path ?? '') ?? (/\.pdf$/i.test(file.path ?? '') ? 'PDF' : 'TEXT'),
          processed: false,
        }),
      );
      announce(userId, 'created', records);
      return { status: 201, body: { data: records.map(view) } };
    }
    if (method === 'GET' && path === '/api/library/stats') return { status: 200, body: { data: statsOf(userId) } };
    if (method === 'GET' && path === '/api/library/tags') {
      const items = [...archiveOf(userId).values()];
      const tags = [...registryOf(userId).values()]
        .map((tag) => ({ ...tag, count: items.filter((item) => item.tags.some((name) => name.toLowerCase() === tag.name.toLowerCase())).length }))
        .sort((a, b) => a.name.localeCompare(b.name));
      return { status: 200, body: { data: tags } };
    }
    if (method === 'POST' && (path === '/api/library/system/init-tags' || path === '/api/library/system/init-gwth-tags')) {
      const created = registerTags(userId, path.endsWith('gwth-tags') ? GWTH_TAGS : STARTER_TAGS);
      return { status: 200, body: { data: { created } } };
    }

    const sections = sectionsOf(userId);
    const sectionView = (section) => ({
      ...section,
      itemCount: [...archiveOf(userId).values()].filter((item) => item.sectionId === section.id).length,
    });
    const ordered = () => [...sections].sort((a, b) => a.position - b.position).map(sectionView);
    if (path === '/api/library/syllabus-sections' && method === 'GET') return { status: 200, body: { data: ordered() } };
    if (path === '/api/library/syllabus-sections' && method === 'POST') {
      const body = onlyFields(await readJson(req), ['title', 'description']);
      if (typeof body.title !== 'string' || !body.title.trim()) throw badRequest('title is required');
      if (body.description !== undefined && body.description !== null && typeof body.description !== 'string') throw badRequest('description must be a string');
      const section = { id: randomUUID(), title: body.title.trim(), description: body.description ?? null, position: sections.length };
      sections.push(section);
      return { status: 201, body: { data: sectionView(section) } };
    }
    if (path === '/api/library/syllabus-sections/order' && method === 'PUT') {
      const body = onlyFields(await readJson(req), ['ids']);
      const ids = Array.isArray(body.ids) ? body.ids : [];
      const every = new Set(sections.map((section) => section.id));
      if (ids.length !== every.size || new Set(ids).size !== ids.length || ids.some((id) => !every.has(id))) {
        throw badRequest('ids must list every section id once');
      }
      ids.forEach((id, index) => {
        sections.find((section) => section.id === id).position = index;
      });
      return { status: 200, body: { data: ordered() } };
    }
    const sectionRoute = path.match(/^\/api\/library\/syllabus-sections\/([^/]+)$/);
    if (sectionRoute) {
      const section = sections.find((candidate) => candidate.id === decodeURIComponent(sectionRoute[1]));
      if (!section) throw notFound('Section not found');
      if (method === 'PATCH') {
        const body = onlyFields(await readJson(req), ['title', 'description']);
        if ('title' in body && (typeof body.title !== 'string' || !body.title.trim())) throw badRequest('title must not be empty');
        if ('title' in body) section.title = body.title.trim();
        if ('description' in body) section.description = body.description;
        return { status: 200, body: { data: sectionView(section) } };
      }
      if (method === 'DELETE') {
        sections.splice(sections.indexOf(section), 1);
        sections.forEach((candidate, index) => {
          candidate.position = index;
        });
        for (const item of archiveOf(userId).values()) if (item.sectionId === section.id) item.sectionId = null;
        return { status: 200, body: { data: { id: section.id, deleted: true } } };
      }
    }
    return null;
  }

  /** One item as the API shows it, or null (premium mode reads its fileName). */
  function itemOf(userId, id) {
    const record = archiveOf(userId).get(id);
    return record ? view(record) : null;
  }

  /** New content for an item (premium mode's OCR), announced like an edit. */
  function replaceContent(userId, id, content) {
    const record = archiveOf(userId).get(id);
    if (!record) return;
    record.content = content;
    if (record.sourceType === 'AUDIO') record.segments = segmentsOf(content);
    announce(userId, 'updated', [record]);
  }

  return { route, addTranscript, itemOf, replaceContent, HttpError };
}

export { HttpError };
