package report

import (
	"bytes"
	"fmt"
)

// errBars are custom error bars for the first series of a native chart:
// plus and minus are cell ranges holding the distances above and below
// each value. excelize (v2.11) cannot draw error bars, so they are spliced
// into the chart part it generated.
type errBars struct {
	chart       int // N of xl/charts/chartN.xml
	plus, minus string
}

func (e errBars) xml() []byte {
	// CT_ErrBars; the chart part declares the a: namespace.
	return fmt.Appendf(nil, `<errBars><errBarType val="both"></errBarType><errValType val="cust"></errValType><noEndCap val="0"></noEndCap>`+
		`<plus><numRef><f>%s</f></numRef></plus><minus><numRef><f>%s</f></numRef></minus>`+
		`<spPr><a:ln w="15875"><a:solidFill><a:srgbClr val="262626"></a:srgbClr></a:solidFill></a:ln></spPr></errBars>`,
		xmlEscape(e.plus), xmlEscape(e.minus))
}

// uprightAxisTitles rotates every native chart's value-axis title in its
// text properties too (RotateValueAxisTitle), so LibreOffice draws
// "截尾均值（0–10）" upright along the axis instead of flat and wrapped.
func (w *writer) uprightAxisTitles() error {
	for n := 1; n <= w.charts; n++ {
		key := fmt.Sprintf("xl/charts/chart%d.xml", n)
		v, ok := w.f.Pkg.Load(key)
		if !ok {
			return fmt.Errorf("report: charts: %s not found", key)
		}
		part, ok := v.([]byte)
		if !ok {
			return fmt.Errorf("report: charts: %s is %T", key, v)
		}
		w.f.Pkg.Store(key, RotateValueAxisTitle(part))
	}
	return nil
}

// spliceErrBars inserts every recorded errBars before the <cat> of the
// chart's first series, where CT_BarSer expects it.
func (w *writer) spliceErrBars() error {
	for _, e := range w.errBars {
		key := fmt.Sprintf("xl/charts/chart%d.xml", e.chart)
		v, ok := w.f.Pkg.Load(key)
		if !ok {
			return fmt.Errorf("report: error bars: %s not found", key)
		}
		part, ok := v.([]byte)
		if !ok {
			return fmt.Errorf("report: error bars: %s is %T", key, v)
		}
		ser := bytes.Index(part, []byte("<ser>"))
		if ser < 0 {
			return fmt.Errorf("report: error bars: %s has no series", key)
		}
		at := bytes.Index(part[ser:], []byte("<cat>"))
		if at < 0 {
			return fmt.Errorf("report: error bars: %s has no categories", key)
		}
		at += ser
		out := make([]byte, 0, len(part)+512)
		out = append(out, part[:at]...)
		out = append(out, e.xml()...)
		out = append(out, part[at:]...)
		w.f.Pkg.Store(key, out)
	}
	return nil
}

func xmlEscape(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\'':
			b.WriteString("&apos;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
