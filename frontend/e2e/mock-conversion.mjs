// Conversion and user settings for the mock gateway: docs/conversion-settings-api.md from memory.
//
// This is a mock, but an honest one:
// - user settings are validated field by field (400 naming the field, unknown fields refused) and
//   merged over the defaults of spec §3;
// - templates are stored per user (names unique, 1–100 characters; bodies at most 64 KB);
// - transcripts → markdown reads the caller's own transcripts (the ones the mock "transcribed"),
//   forms paragraphs from their timed segments and fills the template; a path that is not the
//   caller's fails for that transcript only;
// - PDF → markdown really reads the uploaded bytes with poppler's `pdftotext` (one text per page;
//   pages without text are reported in `ocrPages`); password-protected and damaged files get the
//   contract's 422 messages. Without `pdftotext` on the machine the mock says so (422);
// - premium mode really runs `pdftoppm` + `tesseract` on the pages without text, and answers the
//   contract's 503 when they are missing.
// Nothing here enforces storage quotas except for PDFs (507 past the user's maxStorageGB).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HttpError, segmentsOf } from './mock-vault.mjs';

export const DEFAULT_SETTINGS = Object.freeze({
  theme: 'system',
  defaultView: 'list',
  transcriptsPerPage: 20,
  autoDownload: false,
  notifications: { downloadComplete: true, scheduledSync: true, errors: true },
  privacy: { allowAnalytics: true, shareUsageData: false },
  storage: { maxStorageGB: 10, autoCleanup: false, cleanupAfterDays: 30 },
});

const PLACEHOLDERS = ['title', 'content', 'date', 'source'];
const DEFAULT_TEMPLATE = '# {{title}}\n\n*Source: {{source}} · {{date}}*\n\n{{content}}\n';
const MAX_TEMPLATE_BYTES = 64 * 1024;
const MAX_PDF_BYTES = Number(process.env.SCRIBEVAULT_MAX_PDF_BYTES ?? 100 * 1024 * 1024);
const OCR_MISSING =
  'OCR needs tesseract-ocr and poppler-utils on the server (apt install tesseract-ocr tesseract-ocr-eng poppler-utils)';
/** Sentences per paragraph when a transcript is laid out. */
const SEGMENTS_PER_PARAGRAPH = 4;

const badRequest = (message) => new HttpError(400, message);
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const clone = (value) => JSON.parse(JSON.stringify(value));

function run(command, args, { input } = {}) {
  return new Promise((resolve) => {
    const child = execFile(command, args, { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, missing: error?.code === 'ENOENT', stdout, stderr: String(stderr) });
    });
    if (input) child.stdin.end(input);
  });
}

// ---------- settings ----------
const SETTINGS_RULES = {
  theme: { check: (v) => ['light', 'dark', 'system'].includes(v), message: 'theme must be light, dark or system' },
  defaultView: { check: (v) => ['list', 'grid'].includes(v), message: 'defaultView must be list or grid' },
  transcriptsPerPage: { check: (v) => [10, 20, 50, 100].includes(v), message: 'transcriptsPerPage must be 10, 20, 50 or 100' },
  autoDownload: { check: (v) => typeof v === 'boolean', message: 'autoDownload must be true or false' },
  'notifications.downloadComplete': { check: (v) => typeof v === 'boolean' },
  'notifications.scheduledSync': { check: (v) => typeof v === 'boolean' },
  'notifications.errors': { check: (v) => typeof v === 'boolean' },
  'privacy.allowAnalytics': { check: (v) => typeof v === 'boolean' },
  'privacy.shareUsageData': { check: (v) => typeof v === 'boolean' },
  'storage.maxStorageGB': {
    check: (v) => Number.isInteger(v) && v >= 1 && v <= 1000,
    message: 'storage.maxStorageGB must be a whole number from 1 to 1000',
  },
  'storage.autoCleanup': { check: (v) => typeof v === 'boolean' },
  'storage.cleanupAfterDays': {
    check: (v) => Number.isInteger(v) && v >= 1 && v <= 365,
    message: 'storage.cleanupAfterDays must be a whole number from 1 to 365',
  },
};

/** The stored settings with `body` applied; throws 400 naming the first wrong or unknown field. */
function settingsWith(current, body) {
  if (!isObject(body)) throw badRequest('The body must be a JSON object');
  const next = clone(current);
  for (const [key, value] of Object.entries(body)) {
    if (isObject(DEFAULT_SETTINGS[key])) {
      if (!isObject(value)) throw badRequest(`${key} must be an object`);
      for (const [inner, innerValue] of Object.entries(value)) {
        const rule = SETTINGS_RULES[`${key}.${inner}`];
        if (!rule) throw badRequest(`Unknown field "${key}.${inner}"`);
        if (!rule.check(innerValue)) throw badRequest(rule.message ?? `${key}.${inner} must be true or false`);
        next[key][inner] = innerValue;
      }
    } else {
      const rule = SETTINGS_RULES[key];
      if (!rule) throw badRequest(`Unknown field "${key}"`);
      if (!rule.check(value)) throw badRequest(rule.message);
      next[key] = value;
    }
  }
  return next;
}

// ---------- templates ----------
function templateInput(body) {
  if (!isObject(body)) throw badRequest('The body must be a JSON object');
  for (const key of Object.keys(body)) if (!['name', 'body'].includes(key)) throw badRequest(`Unknown field "${key}"`);
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (!name || name.length > 100) throw badRequest('name must be 1 to 100 characters');
  if (typeof body.body !== 'string') throw badRequest('body must be a string');
  if (Buffer.byteLength(body.body) > MAX_TEMPLATE_BYTES) throw badRequest('body must be at most 64 KB');
  return { name, body: body.body };
}

/** Placeholders of `template` that are not title, content, date or source, in order. */
export function unknownPlaceholders(template) {
  const found = [];
  for (const match of template.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)) {
    if (!PLACEHOLDERS.includes(match[1]) && !found.includes(match[1])) found.push(match[1]);
  }
  return found;
}

/** Fills the known placeholders; anything else in double braces stays as written. */
export function fillTemplate(template, values) {
  return template.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (whole, name) => (PLACEHOLDERS.includes(name) ? String(values[name] ?? '') : whole));
}

/** A transcript's text as paragraphs formed from its timed segments. */
function paragraphsOf(text) {
  const segments = segmentsOf(`# heading\n\n${text}`);
  const paragraphs = [];
  for (let index = 0; index < segments.length; index += SEGMENTS_PER_PARAGRAPH) {
    paragraphs.push(segments.slice(index, index + SEGMENTS_PER_PARAGRAPH).map((segment) => segment.text).join(' '));
  }
  return paragraphs.join('\n\n');
}

/** Page texts → markdown paragraphs (lines of one paragraph joined, hyphenation left alone). */
function pdfParagraphs(pages) {
  return pages
    .map((page) => page.split(/\n\s*\n/).map((block) => block.replace(/\s*\n\s*/g, ' ').trim()).filter(Boolean).join('\n\n'))
    .filter(Boolean)
    .join('\n\n');
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The conversion service of the mock. `transcriptOf(userId, path)` answers `{title, text}` of a
 * transcript the user owns (null otherwise); `vault` is the mock Vault (its items for premium mode).
 */
export function createConversion({ vault, transcriptOf }) {
  const settings = new Map(); // userId -> settings
  const templates = new Map(); // userId -> [template]
  const converted = new Map(); // userId -> Map(markdownPath -> {kind: 'AUDIO'|'PDF', pdfPath?, dir?, pages?, title, source})
  const pdfBytes = new Map(); // userId -> bytes of kept PDFs
  const workDir = mkdtempSync(path.join(tmpdir(), 'scribevault-mock-pdfs-'));
  process.on('exit', () => rmSync(workDir, { recursive: true, force: true }));

  const settingsOf = (userId) => settings.get(userId) ?? clone(DEFAULT_SETTINGS);
  const templatesOf = (userId) => {
    if (!templates.has(userId)) templates.set(userId, []);
    return templates.get(userId);
  };
  const convertedOf = (userId) => {
    if (!converted.has(userId)) converted.set(userId, new Map());
    return converted.get(userId);
  };

  /** What a saved path is: the Vault makes an AUDIO item of a transcript's markdown, a PDF item of a PDF's. */
  function sourceTypeOfPath(userId, filePath) {
    return convertedOf(userId).get(filePath)?.kind ?? null;
  }

  // ---------- PDF reading ----------
  async function readPdf(file) {
    const pdfinfo = await run('pdfinfo', [file]);
    if (pdfinfo.missing) return { error: new HttpError(422, 'This PDF could not be converted (the mock needs pdftotext: apt install poppler-utils)', 'UNPROCESSABLE_ENTITY') };
    if (pdfinfo.code !== 0) {
      if (/password/i.test(pdfinfo.stderr)) return { error: new HttpError(422, 'This PDF is password-protected', 'UNPROCESSABLE_ENTITY') };
      return { error: new HttpError(422, `This PDF is damaged: ${pdfinfo.stderr.split('\n')[0].replace(/^.*Error:\s*/i, '') || 'it cannot be read'}`, 'UNPROCESSABLE_ENTITY') };
    }
    const pageCount = Number(/^Pages:\s+(\d+)/m.exec(pdfinfo.stdout)?.[1] ?? 0);
    const title = /^Title:\s+(.+)$/m.exec(pdfinfo.stdout)?.[1]?.trim() ?? '';
    const text = await run('pdftotext', ['-enc', 'UTF-8', '-layout', file, '-']);
    if (text.code !== 0) return { error: new HttpError(422, 'This PDF could not be converted', 'UNPROCESSABLE_ENTITY') };
    const pages = String(text.stdout).split('\f').slice(0, Math.max(pageCount, 1));
    while (pages.length < pageCount) pages.push('');
    return { pages, title };
  }

  async function ocrPage(file, page, dir) {
    const prefix = path.join(dir, `ocr-${page}`);
    const image = await run('pdftoppm', ['-r', '200', '-f', String(page), '-l', String(page), '-png', file, prefix]);
    if (image.missing) return { missing: true };
    const png = readdirSync(dir).find((name) => name.startsWith(`ocr-${page}`) && name.endsWith('.png'));
    if (!png) return { text: '' };
    const ocr = await run('tesseract', [path.join(dir, png), '-', '-l', 'eng']);
    if (ocr.missing) return { missing: true };
    return { text: ocr.code === 0 ? String(ocr.stdout) : '' };
  }

  function render({ title, pages, source, template }) {
    return fillTemplate(template || DEFAULT_TEMPLATE, { title, content: pdfParagraphs(pages), date: today(), source });
  }

  // ---------- routes ----------
  async function route(req, url, user, { readJson, readForm }) {
    const { method } = req;
    const route = url.pathname;
    const userId = user.id;

    if (route === '/api/user/settings' && method === 'GET') return { status: 200, body: { data: settingsOf(userId) } };
    if (route === '/api/user/settings' && method === 'PATCH') {
      const next = settingsWith(settingsOf(userId), await readJson(req));
      settings.set(userId, next);
      return { status: 200, body: { data: next } };
    }
    if (route === '/api/user/settings/reset' && method === 'POST') {
      settings.set(userId, clone(DEFAULT_SETTINGS));
      return { status: 200, body: { data: clone(DEFAULT_SETTINGS) } };
    }

    if (route === '/api/convert/templates' && method === 'GET') {
      const list = [...templatesOf(userId)].sort((a, b) => a.name.localeCompare(b.name));
      return { status: 200, body: { data: list } };
    }
    if (route === '/api/convert/templates' && method === 'POST') {
      const input = templateInput(await readJson(req));
      const list = templatesOf(userId);
      if (list.some((template) => template.name.toLowerCase() === input.name.toLowerCase())) {
        throw new HttpError(409, `A template named "${input.name}" already exists`, 'CONFLICT');
      }
      const now = new Date().toISOString();
      const template = { id: randomUUID(), ...input, createdAt: now, updatedAt: now };
      list.push(template);
      return { status: 201, body: { data: template } };
    }
    const templateRoute = route.match(/^\/api\/convert\/templates\/([^/]+)$/);
    if (templateRoute) {
      const list = templatesOf(userId);
      const template = list.find((candidate) => candidate.id === decodeURIComponent(templateRoute[1]));
      if (!template) throw new HttpError(404, 'Template not found');
      if (method === 'PUT') {
        const input = templateInput(await readJson(req));
        if (list.some((other) => other !== template && other.name.toLowerCase() === input.name.toLowerCase())) {
          throw new HttpError(409, `A template named "${input.name}" already exists`, 'CONFLICT');
        }
        Object.assign(template, input, { updatedAt: new Date().toISOString() });
        return { status: 200, body: { data: template } };
      }
      if (method === 'DELETE') {
        list.splice(list.indexOf(template), 1);
        return { status: 204 };
      }
      return null;
    }

    if (route === '/api/convert/markdown/batch' && method === 'POST') {
      const body = await readJson(req);
      if (!isObject(body)) throw badRequest('The body must be a JSON object');
      for (const key of Object.keys(body)) if (!['transcripts', 'template'].includes(key)) throw badRequest(`Unknown field "${key}"`);
      const { transcripts, template } = body;
      if (!Array.isArray(transcripts) || transcripts.length < 1 || transcripts.length > 100) throw badRequest('transcripts must hold 1 to 100 transcripts');
      if (template !== undefined && template !== null && typeof template !== 'string') throw badRequest('template must be a string');
      if (typeof template === 'string' && Buffer.byteLength(template) > MAX_TEMPLATE_BYTES) throw badRequest('template must be at most 64 KB');
      transcripts.forEach((entry, index) => {
        if (!isObject(entry)) throw badRequest(`transcripts[${index}] must be an object`);
        for (const key of Object.keys(entry)) if (!['id', 'title', 'transcriptPath'].includes(key)) throw badRequest(`Unknown field "transcripts[${index}].${key}"`);
        if (typeof entry.id !== 'string' || !entry.id) throw badRequest(`transcripts[${index}].id is required`);
        if (typeof entry.transcriptPath !== 'string' || !entry.transcriptPath) throw badRequest(`transcripts[${index}].transcriptPath is required`);
      });
      const results = [];
      const failed = [];
      for (const entry of transcripts) {
        if (entry.transcriptPath.split('/').includes('..') || entry.transcriptPath.startsWith('/')) {
          failed.push({ id: entry.id, message: 'This path leaves your files' });
          continue;
        }
        const transcript = transcriptOf(userId, entry.transcriptPath);
        if (!transcript) {
          failed.push({ id: entry.id, message: 'Transcript not found' });
          continue;
        }
        const title = typeof entry.title === 'string' && entry.title.trim() ? entry.title.trim() : transcript.title;
        const content = fillTemplate(template || DEFAULT_TEMPLATE, {
          title,
          content: paragraphsOf(transcript.text),
          date: today(),
          source: transcript.source ?? entry.transcriptPath,
        });
        const markdownPath = `converted/transcripts/${randomUUID()}.md`;
        convertedOf(userId).set(markdownPath, { kind: 'AUDIO', title });
        results.push({ id: entry.id, markdownPath, content });
      }
      return { status: 200, body: { data: { results, failed, unknownPlaceholders: unknownPlaceholders(template || '') } } };
    }

    if (route === '/api/convert/pdf' && method === 'POST') {
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > MAX_PDF_BYTES + 64 * 1024) throw new HttpError(413, `The PDF is larger than ${Math.round(MAX_PDF_BYTES / 1048576)} MB`, 'PAYLOAD_TOO_LARGE');
      const form = await readForm(req);
      const file = form.get('pdf');
      if (!(file instanceof File)) throw badRequest('The file is not a PDF');
      const bytes = Buffer.from(await file.arrayBuffer());
      if (bytes.length > MAX_PDF_BYTES) throw new HttpError(413, `The PDF is larger than ${Math.round(MAX_PDF_BYTES / 1048576)} MB`, 'PAYLOAD_TOO_LARGE');
      if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw badRequest('The file is not a PDF');
      const quota = settingsOf(userId).storage.maxStorageGB * 1024 ** 3;
      const used = pdfBytes.get(userId) ?? 0;
      if (used + bytes.length > quota) {
        throw new HttpError(507, `Storage limit reached: ${quota / 1024 ** 3} GB allowed, ${(used / 1024 ** 3).toFixed(1)} GB used`, 'INSUFFICIENT_STORAGE');
      }
      const template = typeof form.get('template') === 'string' ? form.get('template') : '';
      if (Buffer.byteLength(template) > MAX_TEMPLATE_BYTES) throw badRequest('template must be at most 64 KB');
      const id = randomUUID();
      const pdfFile = path.join(workDir, `${id}.pdf`);
      writeFileSync(pdfFile, bytes);
      const read = await readPdf(pdfFile);
      if (read.error) {
        rmSync(pdfFile, { force: true });
        throw read.error;
      }
      const source = file.name || `${id}.pdf`;
      const title = read.title || source.replace(/\.pdf$/i, '');
      const ocrPages = read.pages.map((page, index) => (page.trim() ? null : index + 1)).filter(Boolean);
      const markdownPath = `converted/pdfs/${id}.md`;
      const pdfPath = `converted/pdfs/${id}.pdf`;
      convertedOf(userId).set(markdownPath, { kind: 'PDF', file: pdfFile, pdfPath, title, source, template, pages: read.pages });
      pdfBytes.set(userId, used + bytes.length);
      const content = render({ title, pages: read.pages, source, template });
      return { status: 200, body: { data: { title, content, markdownPath, pdfPath, pages: read.pages.length, ocrPages } } };
    }

    const reprocess = route.match(/^\/api\/pdf-sources\/reprocess-transcript\/([^/]+)$/);
    if (reprocess && method === 'POST') {
      const body = await readJson(req);
      if (!isObject(body)) throw badRequest('The body must be a JSON object');
      for (const key of Object.keys(body)) if (key !== 'usePremiumMode') throw badRequest(`Unknown field "${key}"`);
      if (body.usePremiumMode !== true) throw badRequest('usePremiumMode must be true');
      const item = vault.itemOf(userId, decodeURIComponent(reprocess[1]));
      if (!item) throw new HttpError(404, 'Transcript not found');
      const kept = convertedOf(userId).get(item.fileName ?? '');
      if (!kept || kept.kind !== 'PDF') throw new HttpError(422, 'This item has no kept PDF to reprocess', 'UNPROCESSABLE_ENTITY');
      const dir = mkdtempSync(path.join(workDir, 'ocr-'));
      try {
        const pages = [...kept.pages];
        for (let index = 0; index < pages.length; index += 1) {
          if (pages[index].trim()) continue;
          const ocr = await ocrPage(kept.file, index + 1, dir);
          if (ocr.missing) throw new HttpError(503, OCR_MISSING, 'UNAVAILABLE');
          pages[index] = ocr.text;
        }
        kept.pages = pages;
        const content = render({ title: item.title, pages, source: kept.source, template: kept.template });
        vault.replaceContent(userId, item.id, content);
        const ocrPages = pages.map((page, index) => (page.trim() ? null : index + 1)).filter(Boolean);
        return { status: 200, body: { data: { id: item.id, content, pages: pages.length, ocrPages } } };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    return null;
  }

  return { route, settingsOf, sourceTypeOfPath };
}
