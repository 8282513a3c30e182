package xlsxcell

import "testing"

func TestUnescape(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain 文字", "plain 文字"},
		{"第一行_x000D_\n第二行", "第一行\n第二行"},    // Excel's CR LF
		{"旧式_x000D_换行", "旧式\n换行"},          // a lone CR is a line break
		{"响铃_x0007_符", "响铃符"},              // control characters are dropped
		{"制表_x0009_符", "制表\t符"},            // tab stays
		{"_x005F_x000D_", "_x000D_"},       // an escaped underscore: the literal text
		{"_x4E2D__x6587_", "中文"},           // any character may be escaped
		{"_x00zz_ _x12_", "_x00zz_ _x12_"}, // not escapes
		{"删除_x007F_符", "删除符"},
	}
	for _, c := range cases {
		if got := Unescape(c.in); got != c.want {
			t.Errorf("Unescape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestGeneral(t *testing.T) {
	cases := []struct{ in, want string }{
		{"7", "7"},
		{"0.30000000000000004", "0.3"},                 // 15 significant digits
		{"123456789012345", "123456789012345"},         // 15 digits: whole
		{"1230000000000000000", "1230000000000000000"}, // 3 significant digits
		{"123456789012345678", "1.23456789012346E+17"}, // 18 significant digits
		{"-2.5", "-2.5"},
		{"abc", "abc"},
	}
	for _, c := range cases {
		if got := General(c.in); got != c.want {
			t.Errorf("General(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLayoutOf(t *testing.T) {
	cases := map[string]string{
		`yyyy"年"m"月"d"日"`:            "2006-01-02",
		"m/d/yy h:mm":                "2006-01-02 15:04:05",
		"[h]:mm:ss":                  "15:04:05",
		"mmm-yy":                     "2006-01-02",
		"0.0%":                       "%",
		"[$¥-804]#,##0.00":           "",
		`0"分"`:                       "",
		"General":                    "",
		"#,##0.00_);[Red](#,##0.00)": "",
	}
	for code, want := range cases {
		if got := layoutOf(code); got != want {
			t.Errorf("layoutOf(%q) = %q, want %q", code, got, want)
		}
	}
}

// Cells as the styles say: hand-computed from the serial numbers (45352 is
// 2024-03-01 in the 1900 system, 43890 in the 1904 system).
func TestCell(t *testing.T) {
	var f Formats
	f.NumFmt(164, `yyyy"年"m"月"d"日"`)
	for _, id := range []int{0, 14, 22, 164, 20, 9, 1, 4} {
		f.Style(id)
	}
	f1904 := Formats{Date1904: true}
	f1904.Style(0)
	f1904.Style(14)
	var none *Formats
	cases := []struct {
		name   string
		f      *Formats
		typ, v string
		style  int
		want   string
	}{
		{"general", &f, "", "0.30000000000000004", 0, "0.3"},
		{"date 14", &f, "", "45352", 1, "2024-03-01"},
		{"date-time 22", &f, "n", "45352.5", 2, "2024-03-01 12:00"},
		{"custom 年月日", &f, "", "45352", 3, "2024-03-01"},
		{"time 20", &f, "", "0.75", 4, "18:00"},
		{"percent of the full value", &f, "", "0.855", 5, "85.5%"},
		{"format 0 does not round", &f, "", "4.5", 6, "4.5"},
		{"#,##0.00 reads the value", &f, "", "1234.5", 7, "1234.5"},
		{"negative under a date", &f, "", "-1", 1, "-1"},
		{"style out of range", &f, "", "45352", 99, "45352"},
		{"1904 system", &f1904, "", "43890", 1, "2024-03-01"},
		{"no styles", none, "", "45352", 1, "45352"},
		{"shared string as given", &f, "s", "a_x0007_b", 0, "a_x0007_b"},
		{"inline string decoded", &f, "inlineStr", "a_x0007_b", 0, "ab"},
		{"formula string decoded", &f, "str", "行_x000D_\n尾", 0, "行\n尾"},
		{"error value", &f, "e", "#N/A", 0, "#N/A"},
		{"true", &f, "b", "1", 0, "TRUE"},
		{"false", &f, "b", "0", 0, "FALSE"},
		{"odd boolean kept", &f, "b", "yes", 0, "yes"},
		{"ISO date cell", &f, "d", "2024-03-01T00:00:00", 1, "2024-03-01T00:00:00"},
		{"not a number", &f, "", "N/A", 1, "N/A"},
	}
	for _, c := range cases {
		if got := c.f.Cell(c.typ, c.v, c.style); got != c.want {
			t.Errorf("%s: Cell(%q, %q, %d) = %q, want %q", c.name, c.typ, c.v, c.style, got, c.want)
		}
	}
}
