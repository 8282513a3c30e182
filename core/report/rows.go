package report

import (
	"bufio"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"unicode/utf8"
)

// rowWriter writes a streamed sheet's rows as worksheet XML, deflated as
// they come (on other goroutines: the cores left compress while one writes
// rows) into a temporary file; saving splices them into the sheet's part
// (splice.go). The file holds a tenth of the XML: at 100,000 items 1.5 GB
// of rows went through the disk twice before.
//
// Each chunk of rows is deflated on its own (a fresh window, ended by a
// sync flush) by one of several compressors, and the chunks are written in
// order: a deflate stream may be made of such pieces, as the part's head
// and tail already are (splice.go). One compressor, fed the whole stream,
// was the report's bottleneck at 100,000 items (7 of its 13.5 CPU seconds
// on one core, issue 27); the fresh window costs a few bytes a chunk.
//
// Why not excelize's StreamWriter.SetRow: at 100,000 items (2.4 million
// judgements) it made 211 million allocations, a third of the report's CPU
// went to the collector, and each streamed sheet kept a 16–32 MB buffer
// until the file was saved. The StreamWriter still writes each sheet's
// frame (columns, panes, filter, print setup); the rows are the same bytes
// its SetRow writes (excelize v2.11.1 stream.go writeCell, cell.go
// trimCellValue and formatCellFloat, lib.go bstrMarshal), which
// rows_test.go checks cell by cell against excelize itself.
type rowWriter struct {
	file  *os.File
	cur   *rowChunk      // rows not yet handed to the compressors
	jobs  chan *rowChunk // to the compressors
	order chan *rowChunk // the same chunks in order, to the file's writer
	free  chan *rowChunk // chunks back from the writer, to be filled again
	done  chan error
	// finished: the compressors were told the rows ended.
	finished bool
	scratch  []byte
	err      error

	// Of the rows written, once finish returns: their CRC-32, their
	// length, and the length of their deflate stream (ended by a sync
	// flush, not a final block: the part's tail follows it).
	crc     uint32
	n, zlen int64
}

// rowChunkSize is how much XML goes to a compressor at a time.
const rowChunkSize = 256 << 10

// rowChunk is one chunk of rows on its way to the file: its XML, and once
// compressed (a token on compressed) its deflate blocks or the error.
type rowChunk struct {
	raw        []byte
	z          bytes.Buffer
	err        error
	compressed chan struct{}
}

// rowCompressors is how many chunks are deflated at once: as many as there
// are cores (up to four), so that the core writing rows is helped when it
// waits and the compressors are never the one core that everything waits
// for.
func rowCompressors() int { return min(4, runtime.GOMAXPROCS(0)) }

func newRowWriter() (*rowWriter, error) {
	f, err := os.CreateTemp("", "cube-report-rows-*")
	if err != nil {
		return nil, err
	}
	workers := rowCompressors()
	chunks := workers + 2 // one filled, the others compressed or written meanwhile
	rw := &rowWriter{file: f, jobs: make(chan *rowChunk, chunks), order: make(chan *rowChunk, chunks),
		free: make(chan *rowChunk, chunks), done: make(chan error, 1), scratch: make([]byte, 0, 64)}
	for range chunks {
		rw.free <- &rowChunk{raw: make([]byte, 0, rowChunkSize), compressed: make(chan struct{}, 1)}
	}
	rw.cur = <-rw.free
	for range workers {
		go compressChunks(rw.jobs)
	}
	go rw.writeChunks()
	return rw, nil
}

// compressChunks deflates the chunks that arrive on jobs, each on its own.
func compressChunks(jobs <-chan *rowChunk) {
	zw, _ := flate.NewWriter(io.Discard, flate.BestSpeed) // level 1: the XML repeats so much that this costs a quarter more bytes for far less CPU
	for c := range jobs {
		c.z.Reset()
		zw.Reset(&c.z)
		if _, c.err = zw.Write(c.raw); c.err == nil {
			c.err = zw.Flush()
		}
		c.compressed <- struct{}{}
	}
}

// writeChunks writes the compressed chunks to the file in order, with the
// CRC and length of their rows.
func (rw *rowWriter) writeChunks() {
	out := &countWriter{w: bufio.NewWriterSize(rw.file, 64<<10)}
	var err error
	chunks := 0
	for c := range rw.order {
		<-c.compressed
		if err == nil {
			err = c.err
		}
		if err == nil {
			rw.crc = crc32.Update(rw.crc, crc32.IEEETable, c.raw)
			rw.n += int64(len(c.raw))
			_, err = out.Write(c.z.Bytes())
		}
		chunks++
		c.raw = c.raw[:0]
		rw.free <- c
	}
	if err == nil && chunks == 0 {
		// No rows: the sync flush alone, as one compressor fed nothing wrote.
		zw, _ := flate.NewWriter(out, flate.BestSpeed)
		err = zw.Flush()
	}
	if err == nil {
		err = out.w.(*bufio.Writer).Flush()
	}
	rw.zlen = out.n
	rw.done <- err
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// close stops the compressors if finish did not, and removes the file.
func (rw *rowWriter) close() {
	if rw == nil || rw.file == nil {
		return
	}
	if !rw.finished {
		rw.stop()
		<-rw.done
	}
	name := rw.file.Name()
	rw.file.Close()
	os.Remove(name)
	rw.file = nil
}

// stop tells the compressors and the writer that no more rows come.
func (rw *rowWriter) stop() {
	rw.finished = true
	close(rw.jobs)
	close(rw.order)
}

// finish hands the last rows over, waits for the compressors and rewinds
// the file for reading.
func (rw *rowWriter) finish() error {
	if len(rw.cur.raw) > 0 {
		rw.send(rw.cur)
	}
	rw.cur = nil
	rw.stop()
	if err := <-rw.done; err != nil && rw.err == nil {
		rw.err = err
	}
	rw.free = nil // its chunks' buffers: the writer is kept until the file is saved
	if rw.err != nil {
		return rw.err
	}
	_, err := rw.file.Seek(0, 0)
	return err
}

// send passes a chunk to the compressors and, in its turn, to the writer.
func (rw *rowWriter) send(c *rowChunk) {
	rw.order <- c
	rw.jobs <- c
}

// handOver passes a full chunk on and takes an empty one.
func (rw *rowWriter) handOver() {
	rw.send(rw.cur)
	rw.cur = <-rw.free
}

func (rw *rowWriter) str(s string) {
	rw.cur.raw = append(rw.cur.raw, s...)
	if len(rw.cur.raw) >= rowChunkSize {
		rw.handOver()
	}
}

func (rw *rowWriter) bytes(p []byte) {
	rw.cur.raw = append(rw.cur.raw, p...)
	if len(rw.cur.raw) >= rowChunkSize {
		rw.handOver()
	}
}

// startRow opens row r; height > 0 sets a custom height in points.
func (rw *rowWriter) startRow(r int, height float64) {
	rw.scratch = append(rw.scratch[:0], `<row r="`...)
	rw.scratch = strconv.AppendInt(rw.scratch, int64(r), 10)
	rw.scratch = append(rw.scratch, '"')
	if height > 0 {
		rw.scratch = append(rw.scratch, ` ht="`...)
		rw.scratch = strconv.AppendFloat(rw.scratch, height, 'f', -1, 64)
		rw.scratch = append(rw.scratch, `" customHeight="1"`...)
	}
	rw.scratch = append(rw.scratch, '>')
	rw.bytes(rw.scratch)
}

func (rw *rowWriter) endRow() { rw.str(`</row>`) }

// open writes a cell's start tag: <c r="B7" s="3" t="…">.
func (rw *rowWriter) open(col, row, style int, typ string) {
	b := append(rw.scratch[:0], `<c r="`...)
	b = appendColName(b, col)
	b = strconv.AppendInt(b, int64(row), 10)
	b = append(b, '"')
	if style != 0 {
		b = append(b, ` s="`...)
		b = strconv.AppendInt(b, int64(style), 10)
		b = append(b, '"')
	}
	if typ != "" {
		b = append(b, ` t="`...)
		b = append(b, typ...)
		b = append(b, '"')
	}
	b = append(b, '>')
	rw.scratch = b
	rw.bytes(b)
}

// text writes an inline string cell.
func (rw *rowWriter) text(col, row, style int, s string) {
	rw.open(col, row, style, "inlineStr")
	if preserveSpace(s) {
		rw.str(`<is><t xml:space="preserve">`)
	} else {
		rw.str(`<is><t>`)
	}
	rw.escaped(s)
	rw.str(`</t></is></c>`)
}

// number writes a numeric cell as excelize formats a float64: at most 15
// significant digits, the rest cut (not rounded); NaN and infinities as
// text, which Excel has no number for.
func (rw *rowWriter) number(col, row, style int, v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		rw.text(col, row, style, fmt.Sprint(v))
		return
	}
	rw.open(col, row, style, "")
	b := append(rw.scratch[:0], `<v>`...)
	b = appendExcelFloat(b, v)
	b = append(b, `</v></c>`...)
	rw.scratch = b
	rw.bytes(b)
}

// integer writes an int cell.
func (rw *rowWriter) integer(col, row, style int, v int) {
	rw.open(col, row, style, "")
	b := append(rw.scratch[:0], `<v>`...)
	b = strconv.AppendInt(b, int64(v), 10)
	b = append(b, `</v></c>`...)
	rw.scratch = b
	rw.bytes(b)
}

// preserveSpace: text starting or ending with a tab, newline, carriage
// return or space carries xml:space="preserve".
func preserveSpace(s string) bool {
	if s == "" {
		return false
	}
	isSpace := func(c byte) bool { return c == '\t' || c == '\n' || c == '\r' || c == ' ' }
	return isSpace(s[0]) || isSpace(s[len(s)-1])
}

// appendColName appends the letters of a 1-based column.
func appendColName(b []byte, col int) []byte {
	var tmp [4]byte
	i := len(tmp)
	for col > 0 {
		col--
		i--
		tmp[i] = byte('A' + col%26)
		col /= 26
	}
	return append(b, tmp[i:]...)
}

// appendExcelFloat appends v with at most 15 significant digits: digits
// beyond them are dropped after the decimal point and zeroed before it.
func appendExcelFloat(b []byte, v float64) []byte {
	start := len(b)
	b = strconv.AppendFloat(b, v, 'f', -1, 64)
	if math.Abs(v) == math.MaxFloat64 {
		return b
	}
	s := b[start:]
	dot := -1
	for i, c := range s {
		if c == '.' {
			dot = i
			break
		}
	}
	sig := 0
	for i, c := range s {
		if c < '0' || c > '9' || sig == 0 && c == '0' {
			continue
		}
		sig++
		if sig <= 15 {
			continue
		}
		if dot >= 0 && i > dot {
			end := start + i
			if b[end-1] == '.' {
				end--
			}
			return b[:end]
		}
		if dot < 0 {
			dot = len(s)
		}
		for k := i; k < dot; k++ {
			s[k] = '0'
		}
		return b[:start+dot]
	}
	return b
}

// escaped writes s as XML character data the way excelize stores cell
// text: encoding/xml's escaping (quotes, &, <, >, tab and carriage return
// as references, characters XML cannot hold as U+FFFD) with newlines kept,
// then a literal _xHHHH_ escaped as _x005F_xHHHH_ so no reader takes it for
// an escaped character.
func (rw *rowWriter) escaped(s string) {
	if plainXML(s) {
		rw.str(s)
		return
	}
	rw.scratch = appendXMLText(rw.scratch[:0], s)
	if hasBstr(rw.scratch) {
		rw.scratch = escapeBstr(rw.scratch)
	}
	rw.bytes(rw.scratch)
}

// plainXML reports whether s is written as it is: valid UTF-8 of
// characters XML holds (valid UTF-8 has no surrogates; U+FFFE and U+FFFF
// are EF BF BE and EF BF BF), with no character escaped (quotes, &, <, >,
// tab, carriage return, other controls) and no '_' (so no _xHHHH_). Most
// report text is Chinese: this spares it a decoding rune by rune and a copy.
func plainXML(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; xmlByte[c] {
		case byteEscaped:
			return false
		case byteEF:
			if i+2 < len(s) && s[i+1] == 0xBF && (s[i+2] == 0xBE || s[i+2] == 0xBF) {
				return false
			}
		}
	}
	return utf8.ValidString(s)
}

// What plainXML reads in a byte.
const (
	bytePlain   = iota
	byteEscaped // a control but line feed, a quote, &, <, >, '_'
	byteEF      // may start U+FFFE or U+FFFF
)

var xmlByte = func() (t [256]uint8) {
	for c := range 0x20 {
		t[c] = byteEscaped
	}
	t['\n'] = bytePlain
	for _, c := range []byte(`"'&<>_`) {
		t[c] = byteEscaped
	}
	t[0xEF] = byteEF
	return t
}()

// appendXMLText appends s escaped as encoding/xml.EscapeText does, with
// newlines kept.
func appendXMLText(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); {
		r, width := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\r':
			esc = "&#xD;"
		default:
			if r != '\n' && (!xmlChar(r) || r == utf8.RuneError && width == 1) {
				esc = "\uFFFD"
				break
			}
			i += width
			continue
		}
		b = append(b, s[last:i]...)
		b = append(b, esc...)
		i += width
		last = i
	}
	return append(b, s[last:]...)
}

// xmlChar reports whether r may appear in XML 1.0 text.
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// bstrAt reports whether t[i:] starts with _xHHHH_ (H a hex digit).
func bstrAt(t []byte, i int) bool {
	return i+7 <= len(t) && t[i] == '_' && t[i+1] == 'x' && t[i+6] == '_' &&
		isHex(t[i+2]) && isHex(t[i+3]) && isHex(t[i+4]) && isHex(t[i+5])
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func hasBstr(t []byte) bool {
	for i := 0; ; i++ {
		k := bytes.Index(t[i:], []byte("_x")) // vectorised: most texts have none
		if k < 0 {
			return false
		}
		if i += k; bstrAt(t, i) {
			return true
		}
	}
}

// escapeBstr escapes each _xHHHH_ of escaped text t (left to right, not
// overlapping) as OOXML's ST_Xstring asks, so that a reader takes it
// literally: _x005F before it, and _x005F_ itself as _x005F_x005F_ (then
// x005F_ once more when an xHHHH_ follows). This is excelize's bstrMarshal
// but for HHHH naming a surrogate: excelize drops those seven characters
// (its reader would drop them too), they are escaped here like any other.
func escapeBstr(t []byte) []byte {
	out := make([]byte, 0, len(t)+16)
	last := 0
	for i := 0; i+7 <= len(t); {
		if !bstrAt(t, i) {
			i++
			continue
		}
		out = append(out, t[last:i]...)
		if string(t[i:i+7]) == "_x005F_" {
			if bstrAt(append([]byte{'_'}, t[i+7:min(len(t), i+13)]...), 0) {
				out = append(out, "_x005F_x005F_x005F_"...)
			} else {
				out = append(out, "_x005F_x005F_"...)
			}
		} else {
			out = append(out, "_x005F"...)
			out = append(out, t[i:i+7]...)
		}
		i += 7
		last = i
	}
	return append(out, t[last:]...)
}
