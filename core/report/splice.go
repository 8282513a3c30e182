package report

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"

	"github.com/xuri/excelize/v2"
)

// spliceZip is the zip excelize saves into: each part goes straight to
// the file, except a streamed sheet's, which excelize writes with no rows
// (its frame only); the rows rowWriter wrote are put in its empty
// <sheetData></sheetData> as the part is written.
type spliceZip struct {
	zw     *zip.Writer
	bodies map[string]*rowWriter // part name → its rows
	name   string                // the streamed part being captured
	part   bytes.Buffer
	done   map[string]bool
	err    error
}

// newSpliceZip writes to out. Deflate runs at its fastest level: the
// sheet XML is so repetitive that the file grows by about a quarter while
// compressing takes a third of the time (BenchmarkWrite).
func newSpliceZip(out io.Writer, bodies map[string]*rowWriter) *spliceZip {
	zw := zip.NewWriter(out)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestSpeed)
	})
	return &spliceZip{zw: zw, bodies: bodies, done: map[string]bool{}}
}

func (z *spliceZip) Create(name string) (io.Writer, error) {
	if err := z.finishPart(); err != nil {
		return nil, err
	}
	if _, ok := z.bodies[name]; ok {
		z.name = name
		z.part.Reset()
		return &z.part, nil
	}
	return z.zw.Create(name)
}

func (z *spliceZip) AddFS(fsys fs.FS) error {
	if err := z.finishPart(); err != nil {
		return err
	}
	return z.zw.AddFS(fsys)
}

func (z *spliceZip) Close() error {
	if err := z.finishPart(); err != nil {
		return err
	}
	var missing []string
	for name := range z.bodies {
		if !z.done[name] {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return fmt.Errorf("report: excelize wrote no part %v for streamed rows", missing)
	}
	return z.zw.Close()
}

// finishPart writes the captured streamed part with its rows inside.
func (z *spliceZip) finishPart() error {
	if z.name == "" {
		return z.err
	}
	name := z.name
	z.name = ""
	frame := z.part.Bytes()
	const empty = "<sheetData></sheetData>"
	at := bytes.Index(frame, []byte(empty))
	if at < 0 {
		return fmt.Errorf("report: part %s has rows or no sheet data; the streamed rows have nowhere to go", name)
	}
	at += len("<sheetData>")
	out, err := z.zw.Create(name)
	if err != nil {
		return err
	}
	if _, err := out.Write(frame[:at]); err != nil {
		return err
	}
	if _, err := io.Copy(out, z.bodies[name].file); err != nil {
		return fmt.Errorf("report: part %s: %w", name, err)
	}
	if _, err := out.Write(frame[at:]); err != nil {
		return err
	}
	z.done[name] = true
	return nil
}

// sheetPart is the zip part of a sheet the report created: excelize names
// a new sheet's part by its sheet id. spliceZip.Close fails loudly should a
// later excelize name it otherwise.
func sheetPart(sw *excelize.StreamWriter) string {
	return "xl/worksheets/sheet" + strconv.Itoa(sw.SheetID) + ".xml"
}
