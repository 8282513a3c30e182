package docparse

import (
	"errors"
	"fmt"
)

// kindError is a sentinel with its message in both languages, Chinese first
// (the house order), because every docparse error reaches the user.
type kindError struct{ zh, en string }

func (k *kindError) Error() string { return k.zh + " / " + k.en }

// Sentinel errors. Errors returned by this package wrap exactly one of them.
var (
	ErrUnsupported = &kindError{"不支持的文档格式", "unsupported document format"}
	ErrEncrypted   = &kindError{"文档已加密或受密码保护", "document is encrypted or password-protected"}
	ErrCorrupt     = &kindError{"文档已损坏或与扩展名不符", "document is damaged or not in the format its extension says"}
	// ErrTruncated comes with text: the document was read only up to a limit.
	// The text before the cut is returned and usable; the cut is reported
	// so that nobody evaluates on a shortened corpus without knowing.
	ErrTruncated = &kindError{"文档超出读取上限，只读取了前面一部分", "document exceeds a reading limit, only its beginning was read"}
	// ErrLimit means a document needed more time or memory than a parse is
	// allowed; nothing of it is used.
	ErrLimit = &kindError{"解析文档超出时间或内存上限，已放弃", "parsing the document exceeded its time or memory limit and was abandoned"}
)

// detail is a sentinel with specifics in both languages, e.g. which part was
// cut or which object loops.
type detail struct {
	kind   *kindError
	zh, en string
}

func (d *detail) Error() string {
	return d.kind.zh + "：" + d.zh + " / " + d.kind.en + ": " + d.en
}

func (d *detail) Unwrap() error { return d.kind }

func problem(kind *kindError, zh, en string, args ...any) error {
	return &detail{kind, fmt.Sprintf(zh, args...), fmt.Sprintf(en, args...)}
}

// kinds names the sentinels for the child process's reply.
var kinds = map[string]*kindError{
	"unsupported": ErrUnsupported, "encrypted": ErrEncrypted, "corrupt": ErrCorrupt,
	"truncated": ErrTruncated, "limit": ErrLimit,
}

func kindName(err error) string {
	for name, k := range kinds {
		if errors.Is(err, k) {
			return name
		}
	}
	return ""
}

// wireError is an error received from the child process: its message as the
// child wrote it, still matching its sentinel with errors.Is.
type wireError struct {
	kind *kindError
	msg  string
}

func (w *wireError) Error() string { return w.msg }

func (w *wireError) Unwrap() error {
	if w.kind == nil {
		return nil
	}
	return w.kind
}
