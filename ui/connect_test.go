package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/zalando/go-keyring"

	"cubeworkbench/core/profile"
	"cubeworkbench/core/secret"
	"cubeworkbench/core/target"
	"cubeworkbench/core/targetcheck"
	"cubeworkbench/internal/fakeai"
)

// answerOf is the answer a rubric prompt fences.
func answerOf(req fakeai.ChatRequest) string {
	_, rest, _ := strings.Cut(req.Messages[len(req.Messages)-1].Content, "<<<ANSWER")
	a, _, _ := strings.Cut(rest, "ANSWER>>>")
	return a
}

// sensibleJudge scores the probe's right answer (it names the household
// register) high and the other low, in the prompt's own verdict line.
var sensibleJudge = fakeai.WithResponder(func(req fakeai.ChatRequest) fakeai.Response {
	label := "Score"
	if strings.Contains(req.Messages[0].Content, "评分") {
		label = "评分"
	}
	if a := answerOf(req); strings.Contains(a, "户口簿") || strings.Contains(a, "household register") {
		return fakeai.Response{Content: label + ": 9"}
	}
	return fakeai.Response{Content: label + ": 1"}
})

// TestJudgeTestConnection: the judge form's Test connection sends the real
// rubric prompt on the built-in pair and gives a plain verdict — the
// replies read and the right answer scored higher, or why not, or the
// field to fix — in both languages, with the key typed in the window.
func TestJudgeTestConnection(t *testing.T) {
	keyring.MockInit()
	never := fakeai.WithResponder(func(fakeai.ChatRequest) fakeai.Response {
		return fakeai.Response{Content: "The answer looks reasonable overall."}
	})
	cases := []struct {
		name   string
		opts   []fakeai.Option
		url    string // "" the fake's
		model  string
		key    string // pasted in the window
		unsave bool   // typed, not saved
		want   string // the verdict's key, or
		probe  map[string]string
		field  string // the label it must name
	}{
		{"ok", []fakeai.Option{sensibleJudge}, "", "fake-model", "", false, "", map[string]string{"zh": "✓ 连接正常", "en": "✓ Connected"}, ""},
		{"pasted key used", []fakeai.Option{sensibleJudge, fakeai.WithAPIKey("sk-right")}, "", "fake-model", "sk-right", false, "", map[string]string{"zh": "✓ 连接正常", "en": "✓ Connected"}, ""},
		{"typed key used", []fakeai.Option{sensibleJudge, fakeai.WithAPIKey("sk-right")}, "", "fake-model", "sk-right", true, "", map[string]string{"zh": "✓ 连接正常", "en": "✓ Connected"}, ""},
		{"never a score", []fakeai.Option{never}, "", "fake-model", "", false, "", map[string]string{"zh": "读不出分数", "en": "could not be read as a score"}, ""},
		{"wrong key", []fakeai.Option{fakeai.WithAPIKey("sk-right")}, "", "fake-model", "sk-wrong", false, "verdict.bad_key", nil, "key.label"},
		{"wrong model", []fakeai.Option{fakeai.WithScript(fakeai.NotFound, fakeai.NotFound)}, "", "qwen-typo", "", false, "verdict.bad_model", nil, "judges.model"},
		{"unreachable", nil, "http://127.0.0.1:1/v1", "fake-model", "", false, "verdict.unreachable", nil, "judges.base_url"},
	}
	for _, lang := range []string{"zh", "en"} {
		for _, c := range cases {
			t.Run(lang+"/"+c.name, func(t *testing.T) {
				srv := fakeai.New(t, c.opts...)
				url := c.url
				if url == "" {
					url = srv.URL()
				}
				p := profile.Default()
				p.Judges = []profile.Endpoint{{Name: "j1", BaseURL: url, Model: c.model, Concurrency: 1}}
				w, loop := newTestWindow(t, lang, &p)
				t.Cleanup(func() { _ = secret.Default().Delete(secret.Judge("j1")) })
				w.judges.list.Select(0)
				f := w.judges.form
				if c.key != "" {
					test.Type(f.key.entry, c.key)
					if !c.unsave {
						test.Tap(f.key.save)
						f.key.entry.SetText("")
					}
				}
				test.Tap(f.test)
				loop.runUntil(t, 2*time.Minute, "the verdict", func() bool { return !f.test.Disabled() && f.reply.Text != tr("judges.testing") })
				got := f.reply.Text
				if c.probe != nil {
					if !strings.Contains(got, c.probe[lang]) {
						t.Errorf("verdict %q, want %q", got, c.probe[lang])
					}
				} else if head := strings.SplitN(tr(c.want), "<no value>", 2)[0]; !strings.Contains(got, head) {
					t.Errorf("verdict %q, want it to start like %q", got, head)
				}
				if c.field != "" && !strings.Contains(got, tr(c.field)) {
					t.Errorf("verdict %q does not name the field %q", got, tr(c.field))
				}
				if c.key != "" && strings.Contains(got, c.key) {
					t.Errorf("verdict shows the key: %q", got)
				}
			})
		}
	}
}

// TestTargetFormFromRegistry: every registered connector kind gets a form
// of exactly its Spec.Fields, labelled as the registry labels them, and
// what is typed there lands in the profile under the field's key.
func TestTargetFormFromRegistry(t *testing.T) {
	w, _ := newTestWindow(t, "zh", nil)
	f := w.judges.target
	if len(target.Kinds()) < 4 {
		t.Fatalf("kinds %v", target.Kinds())
	}
	for _, kind := range target.Kinds() {
		selectKind(t, f, kind)
		spec, _ := target.SpecOf(kind)
		form := f.fields.Objects[0].(*widget.Form)
		var labels []string
		for _, it := range form.Items {
			labels = append(labels, it.Text)
		}
		i := 0
		for _, fd := range spec.Fields {
			want := fd.Label.In("zh")
			if i >= len(labels) || !strings.HasPrefix(labels[i], want) {
				t.Fatalf("%s: form items %q, want field %q at %d", kind, labels, want, i)
			}
			if fd.Secret {
				i++ // the variable's name, then the pasted key
				if form.Items[i].Widget != f.key.box {
					t.Errorf("%s: the secret field %q has no key entry", kind, fd.Key)
				}
			}
			i++
			if fd.Secret {
				continue
			}
			e := f.entries[fd.Key]
			if e == nil {
				t.Fatalf("%s: no entry for %q", kind, fd.Key)
			}
			e.SetText("")
			test.Type(e, "v-"+fd.Key)
			if w.prof.Target == nil || w.prof.Target.Kind != kind || w.prof.Target.Get(fd.Key) != "v-"+fd.Key {
				t.Errorf("%s: typing in %q gave profile target %+v", kind, fd.Key, w.prof.Target)
			}
		}
		if i != len(labels) {
			t.Errorf("%s: %d form items for %d fields: %q", kind, len(labels), len(spec.Fields), labels)
		}
	}
}

// selectKind chooses a registry kind in the target form.
func selectKind(t *testing.T, f *targetForm, kind string) {
	t.Helper()
	for i, k := range f.kinds {
		if k == kind {
			f.kind.SetSelectedIndex(i + 1)
			return
		}
	}
	t.Fatalf("no kind %q in %v", kind, f.kinds)
}

// TestTargetTestConnection: the target form shows targetcheck's verdict
// for what it holds, in the window's language, and stops its spinner.
func TestTargetTestConnection(t *testing.T) {
	w, loop := newTestWindow(t, "zh", nil)
	f := w.judges.target
	selectKind(t, f, "openai")
	f.entries["base_url"].SetText("http://127.0.0.1:1/v1")
	f.entries["model"].SetText("m")
	test.Tap(f.test)
	loop.runUntil(t, 2*time.Minute, "the verdict", func() bool { return !f.busy })
	want := targetcheck.Check(context.Background(), *f.current(), nil, "", nil).Text("zh")
	if !strings.Contains(f.reply.Text, want) {
		t.Errorf("reply %q, want targetcheck's %q", f.reply.Text, want)
	}
	if f.spinner.Visible() {
		t.Error("the spinner still shows")
	}
}

// TestRerankerForm: the reranker section writes the profile's [reranker]
// (kind as core/rerank spells it), an empty address removes it, and the
// next window shows what was saved.
func TestRerankerForm(t *testing.T) {
	w, _ := newTestWindow(t, "zh", nil)
	f := w.judges.reranker
	if w.prof.Reranker != nil {
		t.Fatalf("default has a reranker: %+v", w.prof.Reranker)
	}
	test.Type(f.baseURL, "http://10.0.0.7:8080")
	f.kind.SetSelectedIndex(2)
	test.Type(f.model, "bge")
	test.Type(f.keyEnv, "RERANK_KEY")
	want := profile.Reranker{BaseURL: "http://10.0.0.7:8080", Kind: "tei", Model: "bge", APIKeyEnv: "RERANK_KEY"}
	if w.prof.Reranker == nil || *w.prof.Reranker != want {
		t.Fatalf("profile reranker %+v, want %+v", w.prof.Reranker, want)
	}
	if err := w.prof.Validate(); err != nil {
		t.Errorf("the profile does not validate: %v", err)
	}
	w2 := New(w.app)
	if got := w2.judges.reranker.current(); got == nil || *got != want {
		t.Errorf("next window's reranker %+v, want %+v", got, want)
	}
	keyring.MockInit()
	t.Cleanup(func() { _ = secret.Default().Delete(secret.Reranker("reranker")) })
	test.Type(f.key.entry, "sk-rerank")
	test.Tap(f.key.save)
	if got, _, _ := secret.Default().Get(secret.Reranker("reranker"), ""); got != "sk-rerank" {
		t.Errorf("the pasted reranker key is %q where the engine looks", got)
	}
	f.baseURL.SetText("")
	if w.prof.Reranker != nil {
		t.Errorf("an empty address keeps %+v", w.prof.Reranker)
	}
}
