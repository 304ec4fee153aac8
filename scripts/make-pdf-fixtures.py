#!/usr/bin/env python3
"""Writes the PDF fixtures of the conversion tests and benchmark, made by real producers.

reportlab (PyPI) lays out the structured documents the way report generators do; Debian's
chromium prints HTML the way browsers do ("Save as PDF"); the bad files are derived from them.

    scripts/make-pdf-fixtures.py OUT_DIR            # the small fixtures the tests use
    scripts/make-pdf-fixtures.py OUT_DIR --long N   # also long.pdf, N pages of text (benchmark)

Needs reportlab and pillow (`scripts/pdf-tools.sh` makes a venv with them).
"""

import os
import random
import shutil
import subprocess
import sys
import tempfile

from PIL import Image, ImageDraw, ImageFont
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import cm
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas
from reportlab.lib.pdfencrypt import StandardEncryption
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    ListFlowable,
    ListItem,
    PageTemplate,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
)

STYLES = getSampleStyleSheet()
WORDS = (
    "garden soil compost water seed harvest tomato pepper season frost mulch root leaf sun "
    "shade bed rotation nitrogen worm pollinator bee flower fruit prune graft orchard"
).split()

# Fixed text the tests look for, so their assertions do not depend on random filler.
INTRO = (
    "Composting turns kitchen scraps into dark, crumbly soil. A well built heap needs air, "
    "water and a balance of green and brown material, and it is ready in about three months."
)


def filler(rng, sentences):
    out = []
    for _ in range(sentences):
        n = rng.randint(8, 16)
        words = [rng.choice(WORDS) for _ in range(n)]
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)


def running_header_footer(title):
    def draw(c, doc):
        c.saveState()
        c.setFont("Helvetica", 9)
        c.drawString(2 * cm, A4[1] - 1.2 * cm, title)
        c.drawRightString(A4[0] - 2 * cm, 1.2 * cm, str(doc.page))
        c.restoreState()

    return draw


def headings_lists(path):
    """Three pages: a title, sections, bullet and numbered lists, a link, a running header and
    page numbers."""
    rng = random.Random(1)
    doc = SimpleDocTemplate(path, pagesize=A4, title="The Garden Handbook", author="Scribevault tests")
    story = [Paragraph("The Garden Handbook", STYLES["Title"]), Paragraph("Composting", STYLES["Heading1"])]
    story.append(Paragraph(INTRO, STYLES["BodyText"]))
    story.append(Paragraph(filler(rng, 12), STYLES["BodyText"]))
    story.append(Paragraph("What goes in the heap", STYLES["Heading2"]))
    story.append(
        ListFlowable(
            [ListItem(Paragraph(text, STYLES["BodyText"])) for text in
             ["Vegetable peelings and fruit cores", "Coffee grounds and tea leaves", "Dry leaves and shredded cardboard"]],
            bulletType="bullet",
        )
    )
    story.append(Paragraph(filler(rng, 20), STYLES["BodyText"]))
    story.append(Paragraph("Building a heap step by step", STYLES["Heading2"]))
    story.append(
        ListFlowable(
            [ListItem(Paragraph(text, STYLES["BodyText"])) for text in
             ["Choose a shady corner", "Lay twigs at the bottom", "Add green and brown layers", "Turn it every month"]],
            bulletType="1",
        )
    )
    story.append(Paragraph(
        'Read more at <link href="https://example.org/compost" color="blue">the compost guide</link> online.',
        STYLES["BodyText"]))
    for section in ["Watering", "Crop rotation", "Pollinators"]:
        story.append(Paragraph(section, STYLES["Heading1"]))
        for _ in range(4):
            story.append(Paragraph(filler(rng, 9), STYLES["BodyText"]))
    decorate = running_header_footer("The Garden Handbook")
    doc.build(story, onFirstPage=decorate, onLaterPages=decorate)


def two_columns(path):
    """Two pages set in two columns with a running header and page numbers."""
    rng = random.Random(2)
    doc = BaseDocTemplate(path, pagesize=A4, title="Two Column Notes")
    width = (A4[0] - 5 * cm) / 2
    frames = [
        Frame(2 * cm, 2 * cm, width, A4[1] - 4 * cm, id="left"),
        Frame(3 * cm + width, 2 * cm, width, A4[1] - 4 * cm, id="right"),
    ]
    doc.addPageTemplates([PageTemplate(id="cols", frames=frames, onPage=running_header_footer("Two Column Notes"))])
    story = [Paragraph("Left column starts here", STYLES["Heading2"]),
             Paragraph("Alpha paragraph opens the left column. " + filler(rng, 12), STYLES["BodyText"])]
    for i in range(10):
        story.append(Paragraph(filler(rng, 5), STYLES["BodyText"]))
        if i == 3:
            story.append(Paragraph("Omega sentence closes a paragraph in the flow.", STYLES["BodyText"]))
    doc.build(story)


def hyphenated(path):
    """Lines broken inside words with a hyphen, as justified typesetting does."""
    c = canvas.Canvas(path, pagesize=A4)
    c.setTitle("Hyphenation")
    c.setFont("Helvetica", 11)
    lines = [
        "The transcrip-",
        "tion of a long recording is split into para-",
        "graphs so that it reads well, and the well-known",
        "hyphen in compound words stays where it is.",
    ]
    y = A4[1] - 3 * cm
    for line in lines:
        c.drawString(2 * cm, y, line)
        y -= 14
    c.showPage()
    c.save()


def scanned(path):
    """Page 1 has text; page 2 is only a picture of text, as a scanner makes it."""
    image = Image.new("L", (1240, 1754), 255)
    draw = ImageDraw.Draw(image)
    try:
        font = ImageFont.truetype("DejaVuSans.ttf", 44)
    except OSError:
        font = ImageFont.load_default(size=44)
    y = 150
    for line in ["Scanned page", "The quick brown fox jumps", "over the lazy dog near", "the riverbank at dawn."]:
        draw.text((120, y), line, fill=0, font=font)
        y += 90
    c = canvas.Canvas(path, pagesize=A4)
    c.setTitle("Scanned Letter")
    c.setFont("Helvetica", 12)
    c.drawString(2 * cm, A4[1] - 3 * cm, "This first page has a text layer.")
    c.showPage()
    c.drawImage(ImageReader(image), 0, 0, width=A4[0], height=A4[1])
    c.showPage()
    c.save()


def encrypted(path):
    c = canvas.Canvas(path, pagesize=A4, encrypt=StandardEncryption("secret", ownerPassword="owner"))
    c.drawString(2 * cm, A4[1] - 3 * cm, "Nobody should read this without the password.")
    c.showPage()
    c.save()


def chromium_print(path):
    """A page printed by headless Chromium (Skia's PDF backend, as 'Save as PDF' makes it)."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        print("chromium not found: skipping chromium.pdf", file=sys.stderr)
        return
    html = """<!doctype html><html><head><meta charset="utf-8"><title>Browser Printed Guide</title></head>
<body style="font-family: sans-serif">
<h1>Browser Printed Guide</h1>
<p>Printing a web page to PDF keeps its headings and its text, so a converter can rebuild them.</p>
<h2>Seasonal tasks</h2>
<ul><li>Sow beans in spring</li><li>Water tomatoes in summer</li><li>Rake leaves in autumn</li></ul>
<h2>Tools</h2>
<ol><li>Spade</li><li>Rake</li><li>Hoe</li></ol>
<p>See <a href="https://example.org/tools">the tool list</a> for more.</p>
</body></html>"""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "page.html")
        with open(src, "w") as f:
            f.write(html)
        subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
             f"--print-to-pdf={path}", f"file://{src}"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120,
        )


def long_document(path, pages):
    """About `pages` pages of sections and paragraphs: the benchmark's 100+ page text PDF."""
    rng = random.Random(3)
    doc = SimpleDocTemplate(path, pagesize=A4, title="A Long Report")
    story = [Paragraph("A Long Report", STYLES["Title"])]
    # ~6 paragraphs of ~12 sentences fill a page of BodyText.
    for chapter in range(pages):
        story.append(Paragraph(f"Chapter {chapter + 1}", STYLES["Heading1"]))
        for _ in range(4):
            story.append(Paragraph(filler(rng, 10), STYLES["BodyText"]))
    doc.build(story, onFirstPage=running_header_footer("A Long Report"),
              onLaterPages=running_header_footer("A Long Report"))


def flate_bomb(path, pages=32, inflated_mb=32):
    """A decompression bomb: `pages` pages whose content streams each inflate to `inflated_mb`
    MiB of spaces (1 GiB from about 1 MB). Every stream is under the parser's own per-stream
    limit; only their total gives them away."""
    import zlib

    data = zlib.compress(b" " * (inflated_mb << 20), 9)
    out = bytearray(b"%PDF-1.4\n")
    offsets = []

    def obj(body):
        offsets.append(len(out))
        out.extend(f"{len(offsets)} 0 obj\n".encode() + body + b"\nendobj\n")

    obj(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{3 + 2 * page} 0 R" for page in range(pages))
    obj(f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode())
    for page in range(pages):
        obj(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * page} 0 R >>".encode())
        obj(f"<< /Length {len(data)} /Filter /FlateDecode >>\nstream\n".encode() + data + b"\nendstream")
    xref = len(out)
    out.extend(f"xref\n0 {len(offsets) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.extend(f"{offset:010d} 00000 n \n".encode())
    out.extend(f"trailer\n<< /Size {len(offsets) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    with open(path, "wb") as f:
        f.write(out)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    headings_lists(os.path.join(out, "headings-lists.pdf"))
    two_columns(os.path.join(out, "two-columns.pdf"))
    hyphenated(os.path.join(out, "hyphenated.pdf"))
    scanned(os.path.join(out, "scanned.pdf"))
    encrypted(os.path.join(out, "encrypted.pdf"))
    chromium_print(os.path.join(out, "chromium.pdf"))
    with open(os.path.join(out, "headings-lists.pdf"), "rb") as f:
        whole = f.read()
    with open(os.path.join(out, "truncated.pdf"), "wb") as f:
        f.write(whole[: len(whole) * 6 // 10])
    flate_bomb(os.path.join(out, "bomb.pdf"))
    with open(os.path.join(out, "random.pdf"), "wb") as f:
        f.write(random.Random(4).randbytes(20_000))
    if "--long" in sys.argv:
        long_document(os.path.join(out, "long.pdf"), int(sys.argv[sys.argv.index("--long") + 1]))


if __name__ == "__main__":
    main()
