package docparse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/ledongthuc/pdf"
)

// maxTreeDepth bounds the page tree: a balanced tree of 2^31 pages is about
// 30 levels deep, so anything deeper is a loop the object ids did not show.
const maxTreeDepth = 64

// pdfFile extracts the text layer of a PDF. A scanned PDF has none and
// yields ""; the caller decides whether an empty document is an error.
// It runs only in the child process (isolate.go): the checks here refuse
// the hostile shapes we know quickly and by name, the child's time and
// memory limits catch the rest.
// The parser panics on some malformed input, so panics become ErrCorrupt.
func pdfFile(path string, lim Limits) (text string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if err := checkXrefChain(f, st.Size()); err != nil {
		return "", err
	}
	defer func() {
		if r := recover(); r != nil {
			text, err = "", fmt.Errorf("%w (%v)", ErrCorrupt, r)
		}
	}()
	rd, err := pdf.NewReader(f, st.Size())
	if err != nil {
		if errors.Is(err, pdf.ErrInvalidPassword) || strings.Contains(err.Error(), "encrypt") {
			return "", ErrEncrypted
		}
		return "", fmt.Errorf("%w (%v)", ErrCorrupt, err)
	}
	root := rd.Trailer().Key("Root").Key("Pages")
	// Every page is an object of its own, so a page count above the number
	// of objects is a lie (/Count 2000000000 in a 1 KiB file).
	if count, size := root.Key("Count").Int64(), rd.Trailer().Key("Size").Int64(); count > size || count < 0 {
		return "", problem(ErrCorrupt, "页面树声称有 %d 页，但文件只有 %d 个对象", "the page tree claims %d pages but the file holds only %d objects", count, size)
	}
	pages, more, err := pageLeaves(root, lim.Pages)
	if err != nil {
		return "", err
	}
	tc := &textCap{max: lim.TextBytes}
	for i, p := range pages {
		// Fonts per page: two pages may give the same resource name (F1)
		// to different fonts, so a document-wide cache by name can garble text.
		fonts := map[string]*pdf.Font{}
		fontDict := inherited(p, "Resources").Key("Font")
		for _, name := range fontDict.Keys() {
			fonts[name] = &pdf.Font{V: fontDict.Key(name)}
		}
		t, err := pdf.Page{V: p}.GetPlainText(fonts)
		if err != nil {
			return "", fmt.Errorf("page %d: %w (%v)", i+1, ErrCorrupt, err)
		}
		tc.WriteString(t)
		tc.WriteByte('\n')
		if tc.full {
			break
		}
	}
	text = tidyLines(tc.String())
	if more {
		return text, problem(ErrTruncated, "超过 %d 页，只读取了前 %d 页", "more than %d pages, only the first %d were read", lim.Pages, lim.Pages)
	}
	return text, cutError(false, tc.full, "", lim)
}

// objectID is the object number a Value was loaded from, read from the
// library's unexported field because it exports no identity; ok is false if
// the field is not there (then only the depth bound guards against loops).
func objectID(v pdf.Value) (uint64, bool) {
	f := reflect.ValueOf(v).FieldByName("ptr")
	if !f.IsValid() {
		return 0, false
	}
	id := f.FieldByName("id")
	if !id.IsValid() || !id.CanUint() {
		return 0, false
	}
	return id.Uint(), id.Uint() != 0
}

// pageLeaves walks the page tree depth first and returns at most max page
// objects in order, and whether there were more. The library's own walk
// (Reader.Page) trusts /Count and follows /Kids without end, so a tree whose
// kids lead back to an ancestor spins forever; here a node seen twice is
// refused, naming its object.
func pageLeaves(root pdf.Value, max int) (leaves []pdf.Value, more bool, err error) {
	seen := map[uint64]bool{}
	var walk func(v pdf.Value, parent uint64, depth int) error
	walk = func(v pdf.Value, parent uint64, depth int) error {
		if depth > maxTreeDepth {
			return problem(ErrCorrupt, "页面树嵌套超过 %d 层（循环引用）", "the page tree is nested deeper than %d levels (it loops)", maxTreeDepth)
		}
		// A direct (inline) dictionary carries its parent's id: not a repeat.
		id, ok := objectID(v)
		if ok && id != parent {
			if seen[id] {
				return problem(ErrCorrupt, "页面树循环引用：对象 %d 出现了两次", "the page tree loops: object %d is reached twice", id)
			}
			seen[id] = true
		}
		switch v.Key("Type").Name() {
		case "Pages":
			kids := v.Key("Kids")
			for i := 0; i < kids.Len(); i++ {
				if err := walk(kids.Index(i), id, depth+1); err != nil {
					return err
				}
				if more {
					return nil
				}
			}
		case "Page":
			if len(leaves) == max {
				more = true
				return nil
			}
			leaves = append(leaves, v)
		}
		return nil
	}
	if err := walk(root, 0, 0); err != nil {
		return nil, false, err
	}
	return leaves, more, nil
}

// inherited looks key up on the page and its ancestors, at most
// maxTreeDepth of them (the library's lookup follows a looping /Parent forever).
func inherited(v pdf.Value, key string) pdf.Value {
	for depth := 0; !v.IsNull() && depth <= maxTreeDepth; depth++ {
		if r := v.Key(key); !r.IsNull() {
			return r
		}
		v = v.Key("Parent")
	}
	return pdf.Value{}
}

var (
	startxrefRE = regexp.MustCompile(`startxref\s+(\d+)\s+%%EOF\s*$`)
	prevRE      = regexp.MustCompile(`/Prev\s+(\d+)`)
)

// maxXrefSections bounds the /Prev chain; incremental saves add one section
// each, and no real file has been saved a thousand times.
const maxXrefSections = 1000

// checkXrefChain follows the cross-reference sections' /Prev offsets
// lexically, before the library does: it reads the chain without a check,
// so a /Prev that points back at its own section spins forever. Shapes this
// scan does not recognise are left to the parser (and the child's limits).
func checkXrefChain(r io.ReaderAt, size int64) error {
	tail := readWindow(r, max(0, size-1024), 1024)
	m := startxrefRE.FindSubmatch(tail)
	if m == nil {
		return nil
	}
	off, err := strconv.ParseInt(string(m[1]), 10, 64)
	if err != nil {
		return nil
	}
	seen := map[int64]bool{}
	for n := 0; ; n++ {
		if off < 0 || off >= size {
			return nil // the parser reports a bad offset itself
		}
		if seen[off] {
			return problem(ErrCorrupt, "交叉引用表的 /Prev 链在偏移 %d 处循环", "the cross-reference /Prev chain loops at offset %d", off)
		}
		if n >= maxXrefSections {
			return problem(ErrCorrupt, "交叉引用表的 /Prev 链超过 %d 节", "the cross-reference /Prev chain has more than %d sections", maxXrefSections)
		}
		seen[off] = true
		dict := sectionDict(r, off)
		pm := prevRE.FindSubmatch(dict)
		if pm == nil {
			return nil
		}
		if off, err = strconv.ParseInt(string(pm[1]), 10, 64); err != nil {
			return nil
		}
	}
}

// sectionDict returns the trailer dictionary of the xref table at off, or
// the dictionary of the xref stream object at off (up to its stream data).
func sectionDict(r io.ReaderAt, off int64) []byte {
	const window = 1 << 20 // an xref table of 50,000 objects; longer ones skip the check
	b := readWindow(r, off, window)
	b = bytes.TrimLeft(b, " \t\r\n\f\x00")
	if bytes.HasPrefix(b, []byte("xref")) {
		i := bytes.Index(b, []byte("trailer"))
		if i < 0 {
			return nil
		}
		b = b[i:]
	}
	if i := bytes.Index(b, []byte("stream")); i >= 0 {
		b = b[:i]
	}
	if i := bytes.Index(b, []byte("startxref")); i >= 0 {
		b = b[:i]
	}
	return b
}

func readWindow(r io.ReaderAt, off, n int64) []byte {
	b := make([]byte, n)
	k, _ := r.ReadAt(b, off)
	return b[:k]
}
