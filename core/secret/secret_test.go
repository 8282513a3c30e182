package secret

import (
	"errors"
	"testing"

	"github.com/zalando/go-keyring"

	"cubeworkbench/core/httpsafe"
)

// newTestStore uses go-keyring's in-memory mock (keyring.MockInit) so the
// test never touches the machine's real keyring.
func newTestStore(env map[string]string) *Store {
	keyring.MockInit()
	s := New()
	s.getenv = func(k string) string { return env[k] }
	return s
}

func TestLookupOrder(t *testing.T) {
	cases := []struct {
		name    string
		env     map[string]string
		keyring string
		session string
		want    string
		src     Source
	}{
		{"env only", map[string]string{"JUDGE_KEY": "sk-env-123456"}, "", "", "sk-env-123456", Env},
		{"keyring only", nil, "sk-ring-123456", "", "sk-ring-123456", Keyring},
		{"env beats keyring", map[string]string{"JUDGE_KEY": "sk-env-123456"}, "sk-ring-123456", "", "sk-env-123456", Env},
		{"session beats all", map[string]string{"JUDGE_KEY": "sk-env-123456"}, "sk-ring-123456", "sk-typed-123456", "sk-typed-123456", Session},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newTestStore(c.env)
			r := Judge("qwen")
			if c.keyring != "" {
				if err := keyring.Set(Service, r.account(), c.keyring); err != nil {
					t.Fatal(err)
				}
			}
			if c.session != "" {
				if err := s.Set(r, c.session, InMemory); err != nil {
					t.Fatal(err)
				}
			}
			got, src, err := s.Get(r, "JUDGE_KEY")
			if err != nil || got != c.want || src != c.src {
				t.Fatalf("Get = %q, %v, %v; want %q, %v", got, src, err, c.want, c.src)
			}
			if red := httpsafe.Redact("server echoed " + got); red != "server echoed [redacted]" {
				t.Fatalf("key handed out but not registered for redaction: %q", red)
			}
		})
	}
}

func TestSetKeyringDelete(t *testing.T) {
	s := newTestStore(nil)
	r := Target("ragflow")
	if err := s.Set(r, "  sk-target-999999 ", InKeyring); err != nil {
		t.Fatal(err)
	}
	if v, err := keyring.Get(Service, "target:ragflow"); err != nil || v != "sk-target-999999" {
		t.Fatalf("keyring holds %q, %v", v, err)
	}
	// A new session (a fresh Store) finds it in the keyring.
	s2 := New()
	s2.getenv = func(string) string { return "" }
	if v, src, err := s2.Get(r, ""); err != nil || v != "sk-target-999999" || src != Keyring {
		t.Fatalf("next session: %q %v %v", v, src, err)
	}
	if err := s2.Delete(r); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s2.Get(r, ""); !errors.Is(err, ErrNoKey) {
		t.Fatalf("after Delete: %v, want ErrNoKey", err)
	}
	if err := s2.Delete(r); err != nil {
		t.Fatalf("deleting a missing key: %v", err)
	}
}

func TestSessionOnlyNeverReachesKeyring(t *testing.T) {
	s := newTestStore(nil)
	if err := s.Set(Judge("j"), "sk-session-123456", InMemory); err != nil {
		t.Fatal(err)
	}
	if _, err := keyring.Get(Service, "judge:j"); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("a session key reached the keyring: %v", err)
	}
}

func TestKeyringUnavailable(t *testing.T) {
	keyring.MockInitWithError(errors.New("org.freedesktop.secrets was not provided"))
	t.Cleanup(keyring.MockInit)
	s := New()
	s.getenv = func(string) string { return "" }
	err := s.Set(Judge("j"), "sk-abcdef123", InKeyring)
	if !errors.Is(err, ErrKeyringUnavailable) {
		t.Fatalf("Set: %v", err)
	}
	if _, _, err := s.Get(Judge("other"), ""); !errors.Is(err, ErrKeyringUnavailable) || !errors.Is(err, ErrNoKey) {
		t.Fatalf("Get: %v", err)
	}
	if err := s.Set(Judge(""), "k", InMemory); err == nil {
		t.Fatal("a nameless ref must be refused")
	}
}
