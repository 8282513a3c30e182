package ingest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// kv is one member of a JSON object, in document order (answer sets are
// listed in the order their keys first appear).
type kv struct {
	key string
	raw json.RawMessage
}

// loadJSON reads a QA set: JSONL (one object per line) or a .json file
// holding an array of objects or CoFE's {"examples": [...]}.
func (l *loader) loadJSON(ctx context.Context, path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	c := &collector{rep: l.rep, skip: l.opt.SkipBadRows, file: path}
	if st.Size() > l.opt.MaxCSVBytes {
		l.rep.Problems = append(l.rep.Problems, *tooLarge(path, st.Size(), l.opt.MaxCSVBytes))
		return nil
	}
	fh, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	defer fh.Close()
	b := l.qaBuilder(c)
	br := bufio.NewReaderSize(fh, 1<<16)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte{0xef, 0xbb, 0xbf}) {
		br.Discard(3)
	}
	first, _ := firstNonSpace(br)
	n := 0
	add := func(row int, obj []kv) {
		n++
		b.add(jsonRecord(row, obj))
	}
	if strings.HasSuffix(strings.ToLower(path), ".json") && (first == '[' || first == '{') {
		err = jsonDocument(ctx, br, c, add)
	} else {
		err = jsonLines(ctx, br, c, add)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		c.sheetProblem(0, "", CodeCorrupt, SeverityError,
			fmt.Sprintf("the file could not be read to the end (%v).", err),
			fmt.Sprintf("文件无法完整读取（%v）。", err))
	}
	if n == 0 && err == nil {
		c.sheetProblem(0, "", CodeEmptySheet, SeverityWarning, "the file holds no records.", "文件中没有记录。")
	}
	return nil
}

func firstNonSpace(br *bufio.Reader) (byte, error) {
	for i := 1; ; i++ {
		b, err := br.Peek(i)
		if err != nil {
			return 0, err
		}
		if c := b[i-1]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return c, nil
		}
	}
}

// jsonLines reads one object per line; a bad line is a bad_json problem
// and reading goes on.
func jsonLines(ctx context.Context, br *bufio.Reader, c *collector, add func(int, []kv)) error {
	for line := 1; ; line++ {
		text, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(text)) > 0 {
			if line&1023 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			dec := json.NewDecoder(bytes.NewReader(text))
			obj, perr := readObject(dec)
			if perr == nil {
				if _, extra := dec.Token(); extra != io.EOF {
					perr = errors.New("more than one value on the line")
				}
			}
			if perr != nil {
				badJSON(c, line, perr)
				c.endRow()
			} else {
				add(line, obj)
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// jsonDocument streams the elements of a top-level array or of the first
// array-valued member of a top-level object ("examples" in CoFE), so a
// large file is never held whole.
func jsonDocument(ctx context.Context, r io.Reader, c *collector, add func(int, []kv)) error {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == json.Delim('{') {
		found := false
		for dec.More() {
			keyTok, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := keyTok.(string)
			if !found && (normalize(key) == "examples" || normalize(key) == "data" || normalize(key) == "items") {
				t, err := dec.Token()
				if err != nil {
					return err
				}
				if t != json.Delim('[') {
					return fmt.Errorf("member %q is not a list", key)
				}
				if err := jsonElements(ctx, dec, c, add); err != nil {
					return err
				}
				found = true
				continue
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return err
			}
		}
		if !found {
			return errors.New(`no "examples" list in the object`)
		}
		return nil
	}
	if tok != json.Delim('[') {
		return errors.New("the file is neither a JSON list nor an object")
	}
	return jsonElements(ctx, dec, c, add)
}

// jsonElements reads array elements up to the closing bracket; the row of
// a problem is the element's 1-based position.
func jsonElements(ctx context.Context, dec *json.Decoder, c *collector, add func(int, []kv)) error {
	for i := 1; dec.More(); i++ {
		if i&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		obj, err := readObject(json.NewDecoder(bytes.NewReader(raw)))
		if err != nil {
			badJSON(c, i, err)
			c.endRow()
			continue
		}
		add(i, obj)
	}
	_, err := dec.Token() // ']'
	return err
}

func badJSON(c *collector, row int, err error) {
	c.rowProblem(row, "", CodeBadJSON, SeverityError,
		fmt.Sprintf("the record is not a JSON object (%v).", err),
		fmt.Sprintf("该记录不是 JSON 对象（%v）。", err))
}

// readObject reads one JSON object keeping its members in order.
func readObject(dec *json.Decoder) ([]kv, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	var out []kv
	for dec.More() {
		keyTok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out = append(out, kv{key: keyTok.(string), raw: raw})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return out, nil
}

// jsonRecord maps an object's members onto QA columns by the same aliases
// as sheet headers; lists stay JSON text for the list parsers.
func jsonRecord(row int, obj []kv) *qaRecord {
	rec := &qaRecord{row: row}
	for k := range rec.label {
		rec.label[k] = qaKeys[k]
	}
	for _, m := range obj {
		text, long := capCell(jsonText(m.raw))
		if long {
			rec.cut = append(rec.cut, m.key)
		}
		if set, ok := answerSystem(m.key); ok {
			rec.answers = append(rec.answers, answerValue{set: set, label: m.key, text: text})
			continue
		}
		key := columnKey(SheetQA, m.key)
		if set := answerSet(key); set != "" {
			rec.answers = append(rec.answers, answerValue{set: set, label: m.key, text: text})
			continue
		}
		for k, name := range qaKeys {
			if name == key && rec.v[k] == "" {
				rec.v[k] = text
				rec.label[k] = m.key
			}
		}
	}
	return rec
}

// jsonText renders a member as cell text: strings as they are, null as
// empty, anything else (numbers, lists) as compact JSON.
func jsonText(raw json.RawMessage) string {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return strings.TrimSpace(s)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return strings.TrimSpace(string(raw))
	}
	return buf.String()
}
