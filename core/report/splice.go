package report

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
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

// newSpliceZip writes to out. Deflate runs at its fastest level, as for
// the rows (rowWriter.compress).
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

// finishPart writes the captured streamed part with its rows inside: the
// frame's head and tail deflated here around the rows deflated already
// (each piece ends on a byte boundary, only the tail with a final block),
// as one raw zip entry with the CRC-32 of the whole.
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
	head, tail := frame[:at], frame[at:]
	body := z.bodies[name]
	zhead, err := deflate(head, false)
	if err != nil {
		return err
	}
	ztail, err := deflate(tail, true)
	if err != nil {
		return err
	}
	crc := crc32Combine(crc32Combine(crc32.ChecksumIEEE(head), body.crc, body.n), crc32.ChecksumIEEE(tail), int64(len(tail)))
	out, err := z.zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc,
		CompressedSize64:   uint64(len(zhead)) + uint64(body.zlen) + uint64(len(ztail)),
		UncompressedSize64: uint64(len(head)) + uint64(body.n) + uint64(len(tail))})
	if err != nil {
		return err
	}
	if _, err := out.Write(zhead); err != nil {
		return err
	}
	if n, err := io.Copy(out, body.file); err != nil || n != body.zlen {
		return fmt.Errorf("report: part %s: %d of %d bytes of rows copied: %v", name, n, body.zlen, err)
	}
	if _, err := out.Write(ztail); err != nil {
		return err
	}
	z.done[name] = true
	return nil
}

// deflate compresses p; final ends the stream, else it ends on a sync
// flush so that more deflate data may follow.
func deflate(p []byte, final bool) ([]byte, error) {
	var b bytes.Buffer
	zw, err := flate.NewWriter(&b, flate.BestSpeed)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(p); err != nil {
		return nil, err
	}
	if final {
		err = zw.Close()
	} else {
		err = zw.Flush()
	}
	return b.Bytes(), err
}

// crc32Combine is the CRC-32 (IEEE) of a then b from their CRCs and b's
// length: a's CRC moved past len2 zero bytes (multiplication by x^(8·len2)
// modulo the polynomial, by repeated squaring of the one-zero-bit
// operator), then b's added. (zlib's crc32_combine; Go's hash/crc32 has
// none.)
func crc32Combine(crc1, crc2 uint32, len2 int64) uint32 {
	if len2 <= 0 {
		return crc1 ^ crc2
	}
	var even, odd [32]uint32
	odd[0] = crc32.IEEE // the operator for one zero bit
	row := uint32(1)
	for n := 1; n < 32; n++ {
		odd[n] = row
		row <<= 1
	}
	square(&even, &odd) // two zero bits
	square(&odd, &even) // four
	for {
		square(&even, &odd) // one zero byte, then 4, 16, … (with odd below)
		if len2&1 != 0 {
			crc1 = times(&even, crc1)
		}
		if len2 >>= 1; len2 == 0 {
			break
		}
		square(&odd, &even)
		if len2&1 != 0 {
			crc1 = times(&odd, crc1)
		}
		if len2 >>= 1; len2 == 0 {
			break
		}
	}
	return crc1 ^ crc2
}

// times multiplies vector v by GF(2) matrix m.
func times(m *[32]uint32, v uint32) uint32 {
	var sum uint32
	for i := 0; v != 0; i, v = i+1, v>>1 {
		if v&1 != 0 {
			sum ^= m[i]
		}
	}
	return sum
}

// square sets sq to m·m.
func square(sq, m *[32]uint32) {
	for n := range 32 {
		sq[n] = times(m, m[n])
	}
}

// sheetPart is the zip part of a sheet the report created: excelize names
// a new sheet's part by its sheet id. spliceZip.Close fails loudly should a
// later excelize name it otherwise.
func sheetPart(sw *excelize.StreamWriter) string {
	return "xl/worksheets/sheet" + strconv.Itoa(sw.SheetID) + ".xml"
}
