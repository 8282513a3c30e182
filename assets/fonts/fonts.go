package fonts

import _ "embed"

// Name is the family name stored in the font's name table.
const Name = "LXGW WenKai"

// File is the embedded file's name, for callers that need a resource name
// (e.g. fyne.NewStaticResource).
const File = "LXGWWenKai-Regular.ttf"

//go:embed LXGWWenKai-Regular.ttf
var cjk []byte

// CJK returns the bytes of the embedded TrueType font. The slice is shared:
// callers must not modify it.
func CJK() []byte { return cjk }

// FormalName is the family name of the printed pages' face.
const FormalName = "Noto Sans CJK SC"

// FormalFile is the embedded file of the printed pages' face.
const FormalFile = "NotoSansSC-Subset.ttf"

//go:embed NotoSansSC-Subset.ttf
var formal []byte

// Formal returns the bytes of the face the charts and the PDF brief use:
// Noto Sans CJK SC Regular (思源黑体), the plain sans face of official
// documents, subset to ASCII, Latin-1, common symbols, CJK punctuation, the
// 6,763 GB2312 Han characters and every character the product's own texts
// and sample use, with TrueType outlines (see README.md). The slice is
// shared: callers must not modify it.
func Formal() []byte { return formal }
