#!/usr/bin/env python3
"""ansi2svg.py: render a terminal capture with ANSI colours (tmux capture-pane -p -e, or streamscope's
screen.ansi) as an SVG picture, independent of streamscope and of fonts for the graphics: block elements
(the Gantt's eighth blocks), braille dots (plots) and box-drawing lines are drawn as shapes, so bars line up
exactly; the rest is text in a monospace font.

usage: ansi2svg.py IN.ansi [OUT.svg] [--cols N] [--title TEXT]
       ansi2svg.py --self-test
Python 3 standard library only.
"""
import argparse
import html
import re
import sys

CELL_W = 8.4   # px per column (0.6 em of a 14 px monospace font)
CELL_H = 17.0  # px per row
FONT = 14
DEFAULT_FG = (0xD8, 0xD8, 0xD8)
DEFAULT_BG = (0x16, 0x18, 0x1D)

BASIC = [(0x00, 0x00, 0x00), (0xCD, 0x31, 0x31), (0x0D, 0xBC, 0x79), (0xE5, 0xE5, 0x10),
         (0x24, 0x72, 0xC8), (0xBC, 0x3F, 0xBC), (0x11, 0xA8, 0xCD), (0xE5, 0xE5, 0xE5),
         (0x66, 0x66, 0x66), (0xF1, 0x4C, 0x4C), (0x23, 0xD1, 0x8B), (0xF5, 0xF5, 0x43),
         (0x3B, 0x8E, 0xEA), (0xD6, 0x70, 0xD6), (0x29, 0xB8, 0xDB), (0xFF, 0xFF, 0xFF)]


def xterm256(n):
    """The xterm 256-colour palette: 16 basic colours, a 6x6x6 cube, 24 greys."""
    if n < 16:
        return BASIC[n]
    if n < 232:
        n -= 16
        levels = [0, 95, 135, 175, 215, 255]
        return (levels[n // 36], levels[(n // 6) % 6], levels[n % 6])
    g = 8 + 10 * (n - 232)
    return (g, g, g)


class Style:
    """The SGR state of one cell."""
    __slots__ = ("fg", "bg", "bold", "dim", "underline", "reverse")

    def __init__(self):
        self.fg = None
        self.bg = None
        self.bold = self.dim = self.underline = self.reverse = False

    def copy(self):
        s = Style()
        s.fg, s.bg, s.bold, s.dim, s.underline, s.reverse = (self.fg, self.bg, self.bold, self.dim,
                                                             self.underline, self.reverse)
        return s

    def colours(self):
        """Foreground and background after reverse video and dim."""
        fg = self.fg if self.fg is not None else DEFAULT_FG
        bg = self.bg if self.bg is not None else DEFAULT_BG
        if self.reverse:
            fg, bg = bg, fg
        if self.dim:
            fg = tuple((c + b) // 2 for c, b in zip(fg, bg))
        return fg, bg

    def key(self):
        return (self.fg, self.bg, self.bold, self.dim, self.underline, self.reverse)


def sgr(style, params):
    """Apply one SGR parameter list to style."""
    p = [int(x) if x else 0 for x in params.split(";")] if params else [0]
    i = 0
    while i < len(p):
        v = p[i]
        if v == 0:
            style.__init__()
        elif v == 1:
            style.bold = True
        elif v == 2:
            style.dim = True
        elif v == 4:
            style.underline = True
        elif v == 7:
            style.reverse = True
        elif v == 22:
            style.bold = style.dim = False
        elif v == 24:
            style.underline = False
        elif v == 27:
            style.reverse = False
        elif 30 <= v <= 37:
            style.fg = BASIC[v - 30]
        elif 90 <= v <= 97:
            style.fg = BASIC[v - 90 + 8]
        elif 40 <= v <= 47:
            style.bg = BASIC[v - 40]
        elif 100 <= v <= 107:
            style.bg = BASIC[v - 100 + 8]
        elif v == 39:
            style.fg = None
        elif v == 49:
            style.bg = None
        elif v in (38, 48) and i + 1 < len(p):
            if p[i + 1] == 5 and i + 2 < len(p):
                c = xterm256(p[i + 2] & 255)
                i += 2
            elif p[i + 1] == 2 and i + 4 < len(p):
                c = (p[i + 2] & 255, p[i + 3] & 255, p[i + 4] & 255)
                i += 4
            else:
                c = None
            if v == 38:
                style.fg = c
            else:
                style.bg = c
        i += 1


ESC = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])|\x1b[()][0-9A-Za-z]|\x1b[=>]|\x1b\][^\x07]*\x07")


def parse(text):
    """Rows of (character, Style) cells."""
    rows = []
    style = Style()
    for line in text.split("\n"):
        cells = []
        pos = 0
        for m in ESC.finditer(line):
            for ch in line[pos:m.start()]:
                if ch >= " ":
                    cells.append((ch, style.copy()))
            if m.group(2) == "m":
                sgr(style, m.group(1))
            pos = m.end()
        for ch in line[pos:]:
            if ch >= " ":
                cells.append((ch, style.copy()))
        rows.append(cells)
    while rows and not rows[-1]:
        rows.pop()
    return rows


def hexc(c):
    return "#%02x%02x%02x" % c


def bar(ch, st):
    """For a block element cell: (left, right) of its painted part in cells and its colour, else None. A left
    n/8 block in reverse video paints the right (8-n)/8 of the cell in the foreground colour (a bar's start)."""
    o = ord(ch)
    if not (0x2588 <= o <= 0x258F):
        return None
    eighths = 8 if o == 0x2588 else 0x2590 - o
    if st.reverse:
        fg = st.fg if st.fg is not None else DEFAULT_FG
        return (eighths / 8, 1.0, fg)
    return (0.0, eighths / 8, st.colours()[0])


def shapes(ch, x, y, fg):
    """SVG shapes for the graphic characters (bars excepted), None for text."""
    o = ord(ch)
    w, h = CELL_W, CELL_H
    if 0x2588 <= o <= 0x258F:
        return ""
    if o == 0x2591:  # light shade
        return '<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s" opacity="0.3"/>' % (
            x, y + 1, w, h - 2, hexc(fg))
    if 0x2800 < o <= 0x28FF:  # braille: dots 1-8 on a 2x4 grid
        out = []
        bits = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3)]
        for b, (cx, cy) in enumerate(bits):
            if (o - 0x2800) >> b & 1:
                out.append('<circle cx="%.2f" cy="%.2f" r="%.2f" fill="%s"/>' % (
                    x + w * (0.27 + 0.46 * cx), y + h * (0.14 + 0.24 * cy), w * 0.16, hexc(fg)))
        return "".join(out)
    box = {0x2500: "h", 0x2502: "v", 0x250C: "rd", 0x2510: "ld", 0x2514: "ru", 0x2518: "lu",
           0x252C: "hd", 0x2534: "hu", 0x251C: "vr", 0x2524: "vl", 0x253C: "hv"}
    if o in box:
        k = box[o]
        cx, cy = x + w / 2, y + h / 2
        seg = []
        if "h" in k or "l" in k:
            seg.append((x, cy, cx, cy))
        if "h" in k or "r" in k:
            seg.append((cx, cy, x + w, cy))
        if "v" in k or "u" in k:
            seg.append((cx, y, cx, cy))
        if "v" in k or "d" in k:
            seg.append((cx, cy, cx, y + h))
        return "".join('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="%s" stroke-width="1"/>' % (
            a, b, c, d, hexc(fg)) for a, b, c, d in seg)
    return None


def render(rows, cols, title):
    cols = max(cols, max((len(r) for r in rows), default=0))
    width, height = cols * CELL_W, len(rows) * CELL_H
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.2f %.2f">' % (
        width + 16, height + 16, width + 16, height + 16)]
    if title:
        out.append("<title>%s</title>" % html.escape(title))
    out.append('<rect width="100%%" height="100%%" rx="6" fill="%s"/>' % hexc(DEFAULT_BG))
    out.append('<g transform="translate(8 8)" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" '
               'font-size="%d">' % FONT)
    for r, cells in enumerate(rows):
        y = r * CELL_H
        # backgrounds (bar cells excepted), merged into runs
        c = 0
        while c < len(cells):
            bg = DEFAULT_BG if bar(*cells[c]) is not None else cells[c][1].colours()[1]
            e = c
            while e < len(cells) and (DEFAULT_BG if bar(*cells[e]) is not None else cells[e][1].colours()[1]) == bg:
                e += 1
            if bg != DEFAULT_BG:
                out.append('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"/>' % (
                    c * CELL_W, y, (e - c) * CELL_W, CELL_H, hexc(bg)))
            c = e
        # bars: the painted parts of block cells, merged while they touch and share a colour (no seams)
        segs = []
        for c, (ch, st) in enumerate(cells):
            b = bar(ch, st)
            if b is None:
                continue
            x0, x1, col = c + b[0], c + b[1], b[2]
            if segs and segs[-1][2] == col and abs(segs[-1][1] - x0) < 1e-9:
                segs[-1][1] = x1
            else:
                segs.append([x0, x1, col])
        for x0, x1, col in segs:
            out.append('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"/>' % (
                x0 * CELL_W, y + 1, (x1 - x0) * CELL_W, CELL_H - 2, hexc(col)))
        # graphics as shapes, text in runs of one style
        c = 0
        while c < len(cells):
            ch, st = cells[c]
            fg = st.colours()[0]
            s = shapes(ch, c * CELL_W, y, fg)
            if s is not None:
                out.append(s)
                c += 1
                continue
            if ch == " ":
                c += 1
                continue
            e = c
            run = []
            while e < len(cells) and cells[e][1].key() == st.key() and cells[e][0] != " " and \
                    shapes(cells[e][0], 0, 0, fg) is None:
                run.append(cells[e][0])
                e += 1
            attrs = ' font-weight="bold"' if st.bold else ""
            if st.underline:
                attrs += ' text-decoration="underline"'
            out.append('<text x="%.2f" y="%.2f" fill="%s" textLength="%.2f" lengthAdjust="spacingAndGlyphs"'
                       ' xml:space="preserve"%s>%s</text>' % (
                           c * CELL_W, y + CELL_H * 0.78, hexc(fg), len(run) * CELL_W, attrs,
                           html.escape("".join(run))))
            c = e
    out.append("</g></svg>\n")
    return "\n".join(out)


def self_test():
    """Render a small capture and check the picture: bars merged across cells and colours, the reverse-video
    start of a bar, braille dots, box lines, text runs with their colours."""
    import xml.etree.ElementTree as ET
    sample = ("\x1b[0;1mstreamscope\x1b[0m \x1b[0;38;5;203mMODEL\x1b[0m\n"
              "s0 \x1b[0;38;5;34m\u2588\u2588\u258c\x1b[0;7;38;5;34m\u258e\x1b[0;38;5;34m\u2588\x1b[0m\n"
              "\x1b[0;38;5;33m\u28ff\u2801\x1b[0;38;5;244m\u2500\u252c\u2502\x1b[0m\n")
    svg = render(parse(sample), 10, "self-test")
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.fromstring(svg)
    rects = [r for r in root.iter(ns + "rect") if r.get("fill") == "#00af00"]  # xterm 34
    spans = sorted((round(float(r.get("x")) / CELL_W, 3), round(float(r.get("width")) / CELL_W, 3)) for r in rects)
    assert spans == [(3.0, 2.5), (6.25, 1.75)], spans  # two full + half; then 6/8 from the right + full
    dots = [c for c in root.iter(ns + "circle") if c.get("fill") == "#0087ff"]  # xterm 33
    assert len(dots) == 9, len(dots)
    assert len(list(root.iter(ns + "line"))) == 2 + 3 + 2, "box lines"  # ─ two halves, ┬ three, │ two
    texts = {t.text: t.get("fill") for t in root.iter(ns + "text")}
    assert texts.get("MODEL") == "#ff5f5f" and "streamscope" in texts, texts
    print("ansi2svg self-test: ok")
    return 0


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        return self_test()
    ap = argparse.ArgumentParser(description="render an ANSI terminal capture as SVG")
    ap.add_argument("input")
    ap.add_argument("output", nargs="?")
    ap.add_argument("--cols", type=int, default=0, help="terminal width (default: the longest line)")
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    with open(a.input, encoding="utf-8", errors="replace") as f:
        rows = parse(f.read())
    svg = render(rows, a.cols, a.title if a.title is not None else a.input)
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(svg)
    else:
        sys.stdout.write(svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
