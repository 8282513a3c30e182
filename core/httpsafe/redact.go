package httpsafe

import (
	"encoding/base64"
	"errors"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"

	"cubeworkbench/core/text"
)

// Placeholder replaces every secret Redact removes.
const Placeholder = "[redacted]"

// minSecret is the shortest value Register accepts: a shorter "key" (the
// "x" or "EMPTY" people give local servers that ignore it) would blank
// ordinary words out of every message.
const minSecret = 6

var registry struct {
	mu   sync.RWMutex
	keys []string // longest first, so a key containing another goes whole
}

// Register adds secrets (API keys, passwords) that Redact must remove from
// every message from now on. Empty and very short values are ignored.
func Register(secrets ...string) {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	for _, s := range secrets {
		s = strings.TrimSpace(s)
		if len(s) < minSecret {
			continue
		}
		known := false
		for _, k := range registry.keys {
			known = known || k == s
		}
		if !known {
			registry.keys = append(registry.keys, s)
		}
	}
	sort.Slice(registry.keys, func(i, j int) bool { return len(registry.keys[i]) > len(registry.keys[j]) })
}

// Forget removes secrets from the registry (a key deleted in the window).
func Forget(secrets ...string) {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	kept := registry.keys[:0]
	for _, k := range registry.keys {
		drop := false
		for _, s := range secrets {
			drop = drop || k == strings.TrimSpace(s)
		}
		if !drop {
			kept = append(kept, k)
		}
	}
	registry.keys = kept
}

var (
	// bearer catches an echoed Authorization header whatever key it holds.
	bearer = regexp.MustCompile(`(?i)\b(bearer)(\s+|%20)([A-Za-z0-9._~+/=\-]{6,})`)
	// keyHeader catches "api-key: …" / "x-api-key=…" echoes.
	keyHeader = regexp.MustCompile(`(?i)\b((?:x-)?api[-_]?key|authorization)("?\s*[:=]\s*"?)([^\s",;&]{6,})`)
	// userinfo is the user:password@ part of a URL in free text.
	userinfo = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.\-]*://)[^/\s@"'<>]+@`)
	// secretQuery is a secret-looking query parameter in free text.
	secretQuery = regexp.MustCompile(`(?i)([?&](?:` + secretParamPattern + `)=)[^&\s"'<>#]+`)
)

const secretParamPattern = `api[-_]?key|key|token|access[-_]?token|auth|secret|password|passwd|pwd|sig|signature|x-amz-signature|code`

var secretParam = regexp.MustCompile(`(?i)^(?:` + secretParamPattern + `)$`)

// Redact removes from s every registered secret, every Bearer/Basic token,
// every api-key header value, URL passwords and secret query parameters.
// Call it on every message that can be shown, stored or logged.
func Redact(s string) string {
	if s == "" {
		return s
	}
	registry.mu.RLock()
	for _, k := range registry.keys {
		if strings.Contains(s, k) {
			s = strings.ReplaceAll(s, k, Placeholder)
		}
		// A key echoed URL-encoded (?key=sk%2F…) is the same key.
		if e := url.QueryEscape(k); e != k && strings.Contains(s, e) {
			s = strings.ReplaceAll(s, e, Placeholder)
		}
	}
	registry.mu.RUnlock()
	s = bearer.ReplaceAllStringFunc(s, func(m string) string {
		g := bearer.FindStringSubmatch(m)
		if g[3] == Placeholder || strings.Trim(g[3], "[]") == "redacted" {
			return m
		}
		return g[1] + g[2] + Placeholder
	})
	s = keyHeader.ReplaceAllStringFunc(s, func(m string) string {
		g := keyHeader.FindStringSubmatch(m)
		if strings.EqualFold(g[3], "bearer") || strings.Contains(g[3], "redacted") {
			return m
		}
		return g[1] + g[2] + Placeholder
	})
	s = userinfo.ReplaceAllString(s, "${1}"+Placeholder+"@")
	s = secretQuery.ReplaceAllString(s, "${1}"+Placeholder)
	return s
}

// RedactError returns err with Redact applied to its message; errors.Is and
// errors.As still see the original chain. nil stays nil.
func RedactError(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if red := Redact(msg); red != msg {
		return &redacted{msg: red, err: err}
	}
	return err
}

type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }

// As gives a *text.Error of the chain redacted: the front ends show an
// error's words through text.Of and the session's Explain, which read the
// first text.Error they find, not e.msg.
func (e *redacted) As(target any) bool {
	p, ok := target.(**text.Error)
	if !ok {
		return false
	}
	var te *text.Error
	if !errors.As(e.err, &te) {
		return false
	}
	*p = text.NewError(text.New(Redact(te.ZH), Redact(te.EN)), RedactError(te.Err))
	return true
}

// IsRedacted reports whether err was rewritten by RedactError.
func IsRedacted(err error) bool {
	var r *redacted
	return errors.As(err, &r)
}

// SanitizeURL returns raw without its user:password part and with the
// values of secret-looking query parameters replaced, for storing a
// profile copy or showing a URL. A value that does not parse as a URL is
// redacted as free text.
func SanitizeURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return Redact(raw)
	}
	u.User = nil
	if u.RawQuery != "" {
		u.RawQuery = strings.TrimPrefix(secretQuery.ReplaceAllString("?"+u.RawQuery, "${1}"+Placeholder), "?")
	}
	return u.String()
}

// URLSecrets returns the password and secret query values a URL carries,
// so a caller can Register them before the URL appears anywhere.
func URLSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var out []string
	if u.User != nil {
		if p, ok := u.User.Password(); ok {
			// The password, and the Basic header Go derives from it.
			out = append(out, p, base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+p)))
		}
	}
	for name, vals := range u.Query() {
		if secretParam.MatchString(name) {
			out = append(out, vals...)
		}
	}
	return out
}

// urlInText finds absolute URLs in free text (a TOML or JSON profile).
var urlInText = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.\-]*://[^\s"'<>]+`)

// SanitizeText applies SanitizeURL to every URL in s and Redact to the
// rest: for a profile copy about to be stored.
func SanitizeText(s string) string {
	s = urlInText.ReplaceAllStringFunc(s, SanitizeURL)
	return Redact(s)
}
