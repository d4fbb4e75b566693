import { PDFDocument, type PDFFont, type PDFPage, StandardFonts, rgb } from '@pdfme/pdf-lib'

/**
 * A small flowing-text layout on A4 for server-made reports: headings, label/value lines, wrapped
 * paragraphs and tables whose rows wrap and whose header repeats on each new page. Text is set in
 * Helvetica (WinAnsi); a character that encoding lacks prints as '?' rather than failing the PDF.
 */

const A4 = { width: 595.28, height: 841.89 }
const MARGIN = 42
const BOTTOM = 48
const GREY = rgb(0.4, 0.4, 0.4)
const LINE = rgb(0.75, 0.75, 0.75)
const SHADE = rgb(0.93, 0.93, 0.93)
const BLACK = rgb(0, 0, 0)

export type Column = { title: string; width: number }
/** A table row: its cells, and lines printed under them across the whole table (what was signed, and its signatures). */
export type Row = string[] | { cells: string[]; notes: string[] }

export class PdfWriter {
  private page!: PDFPage
  private y = 0
  private readonly pages: PDFPage[] = []
  private readonly supported: Set<number>
  private readonly widths = new Map<string, number>()
  private readonly pageFont = new WeakMap<PDFPage, PDFFont>()

  private constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
    private readonly title: string,
  ) {
    this.supported = new Set(font.getCharacterSet())
    this.newPage()
  }

  static async create(title: string): Promise<PdfWriter> {
    const doc = await PDFDocument.create()
    doc.setTitle(title)
    doc.setCreator('MES')
    const [font, bold] = await Promise.all([doc.embedFont(StandardFonts.Helvetica), doc.embedFont(StandardFonts.HelveticaBold)])
    return new PdfWriter(doc, font, bold, title)
  }

  /** The width text may take between the margins. */
  get contentWidth() {
    return A4.width - 2 * MARGIN
  }

  /** Text as the font can print it: line breaks and tabs as spaces, unknown characters as '?'. */
  clean(text: string): string {
    let out = ''
    for (const ch of text.replace(/[\t\r\n]+/g, ' ')) out += this.supported.has(ch.codePointAt(0)!) ? ch : '?'
    return out
  }

  private newPage() {
    this.page = this.doc.addPage([A4.width, A4.height])
    this.pages.push(this.page)
    this.y = A4.height - MARGIN
  }

  /** Starts a new page unless `height` still fits on this one. */
  private room(height: number) {
    if (this.y - height < BOTTOM) this.newPage()
  }

  /** The width of a word, measured once per font and size (a record repeats the same words thousands of times). */
  private measure(word: string, size: number, font: PDFFont): number {
    const key = `${font === this.bold ? 'b' : 'r'}${size}|${word}`
    let width = this.widths.get(key)
    if (width === undefined) {
      width = font.widthOfTextAtSize(word, size)
      this.widths.set(key, width)
    }
    return width
  }

  /** Splits text into lines no wider than `width`; a word longer than the line is cut. */
  wrap(text: string, width: number, size: number, font = this.font): string[] {
    const space = this.measure(' ', size, font)
    const lines: string[] = []
    for (const paragraph of text.split('\n')) {
      let line = ''
      let lineWidth = 0
      for (let word of this.clean(paragraph).split(' ')) {
        let wordWidth = this.measure(word, size, font)
        if (line && lineWidth + space + wordWidth <= width) {
          line += ` ${word}`
          lineWidth += space + wordWidth
          continue
        }
        if (line) lines.push(line)
        while (wordWidth > width && word.length > 1) {
          let cut = word.length - 1
          while (cut > 1 && font.widthOfTextAtSize(word.slice(0, cut), size) > width) cut--
          lines.push(word.slice(0, cut))
          word = word.slice(cut)
          wordWidth = this.measure(word, size, font)
        }
        line = word
        lineWidth = wordWidth
      }
      lines.push(line)
    }
    return lines
  }

  /**
   * Draws one line of text. The page's font is switched only when it changes: pdf-lib's drawText
   * with a `font` option adds a font resource to the page on every call (thousands per record).
   */
  private text(text: string, x: number, y: number, size: number, font: PDFFont, color = BLACK) {
    if (this.pageFont.get(this.page) !== font) {
      this.page.setFont(font)
      this.pageFont.set(this.page, font)
    }
    this.page.drawText(text, { x, y, size, color })
  }

  heading(text: string, size = 13) {
    this.room(size + 30)
    this.y -= size + 8
    this.text(this.clean(text), MARGIN, this.y, size, this.bold)
    this.y -= 4
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: A4.width - MARGIN, y: this.y }, thickness: 0.6, color: LINE })
    this.y -= 6
  }

  subheading(text: string, size = 10.5) {
    this.room(size + 24)
    this.y -= size + 6
    for (const line of this.wrap(text, this.contentWidth, size, this.bold)) {
      this.text(line, MARGIN, this.y, size, this.bold)
      this.y -= size + 2
    }
    this.y += size + 2 - 3
  }

  paragraph(text: string, opts: { size?: number; grey?: boolean; indent?: number } = {}) {
    const size = opts.size ?? 9
    const indent = opts.indent ?? 0
    for (const line of this.wrap(text, this.contentWidth - indent, size)) {
      this.room(size + 3)
      this.y -= size + 3
      this.text(line, MARGIN + indent, this.y, size, this.font, opts.grey ? GREY : BLACK)
    }
  }

  /** Label and value pairs in two columns of label: value lines. */
  facts(pairs: [string, string][], size = 9) {
    const half = this.contentWidth / 2
    const labelWidth = 95
    for (let i = 0; i < pairs.length; i += 2) {
      const row = pairs.slice(i, i + 2)
      const wrapped = row.map(([, value]) => this.wrap(value, half - labelWidth - 8, size))
      const height = Math.max(...wrapped.map((w) => w.length)) * (size + 3)
      this.room(height + 2)
      row.forEach(([label], c) => {
        const x = MARGIN + c * half
        this.text(this.clean(label), x, this.y - size - 1, size, this.bold, GREY)
        wrapped[c]!.forEach((line, n) => this.text(line, x + labelWidth, this.y - (n + 1) * (size + 3) + 2, size, this.font))
      })
      this.y -= height + 2
    }
  }

  space(points = 6) {
    this.y -= points
  }

  /**
   * A table: columns' widths add up to at most the content width; cells wrap; the header repeats
   * after a page break. A row's notes are set under its cells across the table's width, indented.
   */
  table(columns: Column[], rows: Row[], size = 8) {
    const pad = 3
    const lineHeight = size + 2.5
    const noteIndent = 12
    const drawHeader = () => {
      const wrapped = columns.map((c) => this.wrap(c.title, c.width - 2 * pad, size, this.bold))
      const height = Math.max(...wrapped.map((w) => w.length)) * lineHeight + 2 * pad
      this.page.drawRectangle({ x: MARGIN, y: this.y - height, width: this.totalWidth(columns), height, color: SHADE })
      this.cells(columns, wrapped, size, lineHeight, pad, this.bold)
      this.y -= height
    }
    this.room(3 * lineHeight + 4 * pad)
    drawHeader()
    for (const row of rows) {
      const { cells, notes } = Array.isArray(row) ? { cells: row, notes: [] } : row
      const wrapped = columns.map((c, i) => this.wrap(cells[i] ?? '', c.width - 2 * pad, size))
      const noteLines = notes.flatMap((n) => this.wrap(n, this.totalWidth(columns) - 2 * pad - noteIndent, size))
      const cellsHeight = Math.max(...wrapped.map((w) => w.length)) * lineHeight + 2 * pad
      const height = cellsHeight + noteLines.length * lineHeight
      if (this.y - height < BOTTOM) {
        this.newPage()
        drawHeader()
      }
      this.cells(columns, wrapped, size, lineHeight, pad, this.font)
      noteLines.forEach((line, n) => this.text(line, MARGIN + pad + noteIndent, this.y - cellsHeight - (n + 1) * lineHeight + pad + 2.5, size, this.font))
      this.y -= height
      this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: MARGIN + this.totalWidth(columns), y: this.y }, thickness: 0.4, color: LINE })
    }
    this.y -= 4
  }

  private totalWidth(columns: Column[]) {
    return columns.reduce((n, c) => n + c.width, 0)
  }

  private cells(columns: Column[], wrapped: string[][], size: number, lineHeight: number, pad: number, font: PDFFont) {
    let x = MARGIN
    columns.forEach((c, i) => {
      wrapped[i]!.forEach((line, n) => this.text(line, x + pad, this.y - pad - (n + 1) * lineHeight + 2.5, size, font))
      x += c.width
    })
  }

  /** The PDF, each page footed with the document's title and "page n / N" in the given words. */
  async finish(pageWord: (n: number, of: number) => string): Promise<Uint8Array> {
    const size = 7.5
    this.pages.forEach((page, i) => {
      this.page = page
      this.text(this.clean(this.title), MARGIN, 24, size, this.font, GREY)
      const text = this.clean(pageWord(i + 1, this.pages.length))
      this.text(text, A4.width - MARGIN - this.font.widthOfTextAtSize(text, size), 24, size, this.font, GREY)
    })
    return this.doc.save()
  }
}
