// Package secret finds the API key of a judge, generator, embedder or
// target: typed in the window for this session only, from the environment
// variable the profile names, or from the OS keyring (Keychain, Windows
// Credential Manager, the Secret Service on Linux) through
// github.com/zalando/go-keyring. A key is never written to a file, a log or
// the run store by this package; every key it hands out or is given is
// registered with httpsafe so that no error message can show it.
package secret

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/zalando/go-keyring"

	"cubeworkbench/core/httpsafe"
	"cubeworkbench/core/text"
)

// Service is the keyring service every key is filed under.
const Service = "CuBE Workbench"

// Kinds of endpoint a key belongs to.
const (
	KindJudge     = "judge"
	KindTarget    = "target"
	KindGenerator = "generator"
	KindEmbedder  = "embedder"
	KindReranker  = "reranker"
)

// Ref names whose key it is: the kind and the profile's name for it.
type Ref struct {
	Kind string
	Name string
}

// Judge makes the Ref of a judge's key.
func Judge(name string) Ref { return Ref{KindJudge, name} }

// Target makes the Ref of the system under test's key.
func Target(name string) Ref { return Ref{KindTarget, name} }

// Generator makes the Ref of the generator's key.
func Generator(name string) Ref { return Ref{KindGenerator, name} }

// Embedder makes the Ref of the embedder's key.
func Embedder(name string) Ref { return Ref{KindEmbedder, name} }

// Reranker makes the Ref of the reranker's key.
func Reranker(name string) Ref { return Ref{KindReranker, name} }

// account is the keyring user the key is stored under.
func (r Ref) account() string { return r.Kind + ":" + r.Name }

func (r Ref) String() string { return r.account() }

// Source says where a key came from, for the window to show ("stored in the
// keyring", "this session only") without showing the key.
type Source int

const (
	None    Source = iota // no key anywhere
	Session               // typed in the window, held in memory until the app quits
	Env                   // the environment variable the profile names
	Keyring               // the OS keyring
)

func (s Source) String() string {
	return [...]string{"none", "session", "env", "keyring"}[s]
}

// Where Set puts a key.
type Where int

const (
	// InMemory keeps the key for this session only.
	InMemory Where = iota
	// InKeyring stores it in the OS keyring (and in memory).
	InKeyring
)

// ErrNoKey means no source had a key.
var ErrNoKey = text.NewError(text.New("未找到 API 密钥：请在窗口中输入，或设置配置中 api_key_env 指定的环境变量", "no API key: type it in the window or set the environment variable named by api_key_env"), nil)

// ErrKeyringUnavailable wraps a keyring that cannot be used (no Secret
// Service on a headless Linux, a locked keychain).
var ErrKeyringUnavailable = text.NewError(text.New("系统密钥环不可用，密钥仅在本次会话中保留", "the OS keyring is not available; keep the key for this session only"), nil)

// Store looks keys up. The zero value is not usable; use New.
type Store struct {
	mu      sync.Mutex
	session map[string]string
	getenv  func(string) string
}

// New returns an empty store reading the process environment.
func New() *Store { return &Store{session: map[string]string{}, getenv: os.Getenv} }

var defaultStore = New()

// Default is the process-wide store the window and cubectl share.
func Default() *Store { return defaultStore }

// Set records key for r, in memory, and in the keyring when where is
// InKeyring. An empty key is refused.
func (s *Store) Set(r Ref, key string, where Where) error {
	key = strings.TrimSpace(key)
	if key == "" {
		return text.NewError(text.New("密钥为空", "the key is empty"), nil)
	}
	if err := r.valid(); err != nil {
		return err
	}
	httpsafe.Register(key)
	if where == InKeyring {
		if err := keyring.Set(Service, r.account(), key); err != nil {
			return fmt.Errorf("%w (%s: %v)", ErrKeyringUnavailable, r, err)
		}
	}
	s.mu.Lock()
	s.session[r.account()] = key
	s.mu.Unlock()
	return nil
}

// Get returns r's key: a key typed this session first (the freshest intent),
// then the environment variable envVar (when the profile names one), then
// the keyring. ErrNoKey when none has it.
func (s *Store) Get(r Ref, envVar string) (string, Source, error) {
	if err := r.valid(); err != nil {
		return "", None, err
	}
	s.mu.Lock()
	key, ok := s.session[r.account()]
	s.mu.Unlock()
	if ok {
		return key, Session, nil
	}
	if envVar != "" {
		if v := strings.TrimSpace(s.getenv(envVar)); v != "" {
			httpsafe.Register(v)
			return v, Env, nil
		}
	}
	v, err := keyring.Get(Service, r.account())
	switch {
	case err == nil && strings.TrimSpace(v) != "":
		v = strings.TrimSpace(v)
		httpsafe.Register(v)
		return v, Keyring, nil
	case err == nil, errors.Is(err, keyring.ErrNotFound):
		return "", None, fmt.Errorf("%w (%s)", ErrNoKey, r)
	default:
		// A keyring that cannot be read is not a missing key: say so.
		return "", None, fmt.Errorf("%w (%s: %v); %w", ErrKeyringUnavailable, r, err, ErrNoKey)
	}
}

// Delete forgets r's key in memory and in the keyring. A key that was not
// there is not an error. The key stays registered for redaction: messages
// already made may still hold it.
func (s *Store) Delete(r Ref) error {
	s.mu.Lock()
	delete(s.session, r.account())
	s.mu.Unlock()
	if err := keyring.Delete(Service, r.account()); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return fmt.Errorf("%w (%s: %v)", ErrKeyringUnavailable, r, err)
	}
	return nil
}

func (r Ref) valid() error {
	if r.Kind == "" || strings.TrimSpace(r.Name) == "" {
		return text.NewError(text.New(fmt.Sprintf("密钥需要类型和名称（收到 %q）", r.account()), fmt.Sprintf("secret: a key needs a kind and a name (got %q)", r.account())), nil)
	}
	return nil
}
