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
