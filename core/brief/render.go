package brief

import (
	"bytes"
	"fmt"
	"image"
	_ "image/png" // chart PNGs
	"time"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot/vg"

	"cubeworkbench/assets/fonts"
	"cubeworkbench/core/glossary"
)

const face = "wenkai"

// colours of the verdict banner: fill and text. Green, amber, red, grey; the
// amber takes dark text, the others white, for contrast in print.
var banner = map[glossary.VerdictCode][2][3]int{
	Deployable:   {{0x1E, 0x7B, 0x34}, {0xFF, 0xFF, 0xFF}},
	NeedsWork:    {{0xF0, 0xB4, 0x00}, {0x22, 0x22, 0x22}},
	NotReady:     {{0xB3, 0x26, 0x1E}, {0xFF, 0xFF, 0xFF}},
	Undetermined: {{0x5F, 0x63, 0x68}, {0xFF, 0xFF, 0xFF}},
}

// newDoc is an A4 document with the embedded face and no automatic page
// breaks: the layout decides everything, so nothing can spill.
func newDoc(c *Content) (*fpdf.Fpdf, error) {
	f := fpdf.New("P", "mm", "A4", "")
	f.SetMargins(marginX, marginTop, marginX)
	f.SetAutoPageBreak(false, 0)
	// fpdf embeds only the glyphs the page uses (a subset), so the 15 MB
	// face becomes a few tens of kB in the file.
	f.AddUTF8FontFromBytes(face, "", fonts.Formal())
	f.SetFont(face, "", 10)
	if err := f.Error(); err != nil {
		return nil, fail("无法加载内嵌字体：%v", "cannot load the embedded font: %v", err)
	}
	if !c.Date.IsZero() {
		// A fixed date makes the same content give the same file.
		f.SetCreationDate(c.Date.UTC())
		f.SetModificationDate(c.Date.UTC())
	} else {
		f.SetCreationDate(time.Unix(0, 0).UTC())
		f.SetModificationDate(time.Unix(0, 0).UTC())
	}
	f.SetTitle(tr(c.Lang, "title"), true)
	f.SetCreator("CuBE Workbench "+c.ToolVersion, true)
	f.SetLang(map[bool]string{true: "en", false: "zh-CN"}[c.Lang == LangEN])
	return f, nil
}

func measurer(f *fpdf.Fpdf) measure {
	return func(s string, size float64) float64 {
		f.SetFontSize(size)
		return f.GetStringWidth(s)
	}
}

func prepare(c Content) (*Content, []aspect, error) {
	if c.Lang != LangEN {
		c.Lang = LangZH
	}
	if err := c.check(); err != nil {
		return nil, nil, err
	}
	aspects := make([]aspect, len(c.Charts))
	for i, ch := range c.Charts {
		if ch.Figure != nil {
			continue // drawn at the size it gets
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(ch.PNG))
		if err != nil || format != "png" || cfg.Width == 0 || cfg.Height == 0 {
			return nil, nil, fail("第 %d 张图不是可读的 PNG", "chart %d is not a readable PNG", i+1)
		}
		aspects[i] = aspect(float64(cfg.Height) / float64(cfg.Width))
	}
	return &c, aspects, nil
}

// Layout measures the brief without drawing it: the blocks Render draws.
func Layout(c Content) (Page, error) {
	cc, aspects, err := prepare(c)
	if err != nil {
		return Page{}, err
	}
	f, err := newDoc(cc)
	if err != nil {
		return Page{}, err
	}
	return layout(measurer(f), cc, aspects), nil
}

// Render returns the brief as a one-page A4 PDF.
func Render(c Content) ([]byte, error) {
	cc, aspects, err := prepare(c)
	if err != nil {
		return nil, err
	}
	f, err := newDoc(cc)
	if err != nil {
		return nil, err
	}
	p := layout(measurer(f), cc, aspects)
	pngs, err := chartPNGs(cc, p)
	if err != nil {
		return nil, err
	}
	f.AddPage()
	for _, b := range p.Blocks {
		draw(f, cc, pngs, b)
	}
	if err := f.Error(); err != nil {
		return nil, fail("无法绘制简报：%v", "cannot draw the brief: %v", err)
	}
	if f.PageCount() != 1 {
		return nil, fail("简报画成了 %d 页而不是 1 页", "the brief drew %d pages instead of one", f.PageCount())
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		return nil, fail("无法写出 PDF：%v", "cannot write the PDF: %v", err)
	}
	return buf.Bytes(), nil
}

func dark(f *fpdf.Fpdf) { f.SetTextColor(0x1A, 0x1A, 0x1A) }

func lines(f *fpdf.Fpdf, b Block, x float64, align string) {
	f.SetFontSize(b.Size)
	for i, s := range b.Lines {
		f.SetXY(x, b.Y+float64(i)*lh(b.Size))
		f.CellFormat(b.W-(x-b.X), lh(b.Size), s, "", 0, align+"M", false, 0, "")
	}
}

func draw(f *fpdf.Fpdf, c *Content, pngs [][]byte, b Block) {
	dark(f)
	switch b.Kind {
	case "title":
		f.SetTextColor(0x55, 0x55, 0x55)
		lines(f, b, b.X, "L")
	case "banner":
		col := banner[c.Verdict]
		f.SetFillColor(col[0][0], col[0][1], col[0][2])
		f.RoundedRect(b.X, b.Y, b.W, b.H, 2, "1234", "F")
		f.SetTextColor(col[1][0], col[1][1], col[1][2])
		f.SetFontSize(b.Size)
		f.SetXY(b.X+4, b.Y)
		f.CellFormat(b.W-8, b.H, b.Lines[0], "", 0, "LM", false, 0, "")
	case "notice":
		f.SetFillColor(0xFF, 0xF4, 0xCC)
		f.SetDrawColor(0xC8, 0x9B, 0x00)
		f.SetLineWidth(0.3)
		f.Rect(b.X, b.Y, b.W, b.H, "FD")
		inner := b
		inner.Y, inner.X, inner.W = b.Y+1, b.X+2, b.W-4
		lines(f, inner, inner.X, "L")
	case "heading":
		f.SetTextColor(0x0B, 0x3D, 0x6E)
		lines(f, b, b.X, "L")
	case "bullet":
		f.SetFontSize(b.Size)
		f.SetXY(b.X-4, b.Y)
		f.CellFormat(4, lh(b.Size), "•", "", 0, "LM", false, 0, "")
		lines(f, b, b.X, "L")
	case "text", "footer":
		if b.Kind == "footer" {
			f.SetTextColor(0x33, 0x33, 0x33)
		}
		lines(f, b, b.X, "L")
	case "rule":
		f.SetDrawColor(0x99, 0x99, 0x99)
		f.SetLineWidth(0.2)
		f.Line(b.X, b.Y, b.X+b.W, b.Y)
	case "head", "row":
		if b.Kind == "head" {
			f.SetFillColor(0xE8, 0xEE, 0xF4)
			f.Rect(b.X, b.Y, b.W, b.H, "F")
		} else {
			f.SetDrawColor(0xDD, 0xDD, 0xDD)
			f.SetLineWidth(0.2)
			f.Line(b.X, b.Y+b.H, b.X+b.W, b.Y+b.H)
		}
		f.SetFontSize(b.Size)
		x := b.X
		for i, s := range b.Cells {
			// Headers take their column's alignment: numbers right, names left.
			align := "R"
			if i == 0 {
				align = "L"
			}
			f.SetXY(x+1.5, b.Y)
			f.CellFormat(b.Cols[i]-3, b.H, s, "", 0, align+"M", false, 0, "")
			x += b.Cols[i]
		}
	case "chart":
		name := fmt.Sprintf("chart%d", b.Chart)
		f.RegisterImageOptionsReader(name, fpdf.ImageOptions{ImageType: "PNG"}, bytes.NewReader(pngs[b.Chart]))
		f.ImageOptions(name, b.X, b.Y, b.W, b.H, false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")
		f.SetDrawColor(0xCC, 0xCC, 0xCC)
		f.SetLineWidth(0.2)
		f.Rect(b.X, b.Y, b.W, b.H, "D")
		if len(b.Lines) > 0 {
			f.SetTextColor(0x33, 0x33, 0x33)
			f.SetFontSize(b.Size)
			f.SetXY(b.X, b.Y+b.H)
			f.CellFormat(b.W, lh(b.Size), b.Lines[0], "", 0, "CM", false, 0, "")
		}
	}
}

// PrintDPI is the resolution charts given as figures are rendered at.
const PrintDPI = 200

// chartPNGs returns the image of every placed chart: figures rendered at the
// size of their block, so their text prints at its intended size.
func chartPNGs(c *Content, p Page) ([][]byte, error) {
	out := make([][]byte, len(c.Charts))
	for _, b := range p.Blocks {
		if b.Kind != "chart" {
			continue
		}
		ch := c.Charts[b.Chart]
		if ch.Figure == nil {
			out[b.Chart] = ch.PNG
			continue
		}
		fig := *ch.Figure
		fig.Width, fig.Height, fig.DPI = vg.Length(b.W)*vg.Millimeter, vg.Length(b.H)*vg.Millimeter, PrintDPI
		png, err := fig.PNG()
		if err != nil {
			return nil, fail("无法绘制第 %d 张图：%v", "cannot draw chart %d: %v", b.Chart+1, err)
		}
		out[b.Chart] = png
	}
	return out, nil
}
