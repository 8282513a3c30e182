package httpsafe

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"cubeworkbench/core/text"
)

// ErrCrossHostRedirect is returned (wrapped in *url.Error by net/http) when
// a server redirects to another host and the endpoint does not allow it.
var ErrCrossHostRedirect = text.NewError(text.New(
	"服务端把请求重定向到了另一个主机，已拒绝（问题、答案和指南不会发往配置之外的地址）；如确需跟随，请在该端点配置 allow_redirects = true",
	"the server redirected the request to another host, which was refused (questions, answers and guides are not sent to an address the profile does not name); set allow_redirects = true on this endpoint to follow it"), nil)

// Options configure NewClient. The zero value is a safe default.
type Options struct {
	// Timeout bounds a whole request (0 = none: callers that set a
	// deadline per attempt through the context leave it 0).
	Timeout time.Duration
	// AllowRedirects follows redirects to other hosts (the profile's
	// per-endpoint allow_redirects). Same-host redirects (http→https on the
	// same host, a trailing slash) are followed either way.
	AllowRedirects bool
	// MaxIdleConnsPerHost keeps this many connections warm (0 → 2).
	MaxIdleConnsPerHost int
}

// maxRedirects is net/http's own limit, kept.
const maxRedirects = 10

// NewClient returns the http.Client every connector of the tool uses: its
// own transport (proxy from the environment, as net/http's default) and a
// redirect policy that refuses other hosts. net/http already drops the
// Authorization header on a redirect to another host; refusing the
// redirect also keeps the request body, which holds the guide, the question
// and the answer, from going there, and that host's reply from counting.
func NewClient(o Options) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	if o.MaxIdleConnsPerHost > 0 {
		t.MaxIdleConnsPerHost = o.MaxIdleConnsPerHost
	}
	return &http.Client{Transport: t, Timeout: o.Timeout, CheckRedirect: RedirectPolicy(o.AllowRedirects)}
}

// RedirectPolicy is NewClient's CheckRedirect, for a caller that must build
// its client another way (a library's own client struct).
func RedirectPolicy(allowCrossHost bool) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return text.NewError(text.New(fmt.Sprintf("停止于 %d 次重定向", maxRedirects), fmt.Sprintf("stopped after %d redirects", maxRedirects)), nil)
		}
		from := via[0].URL
		if allowCrossHost || sameHost(from.Hostname(), req.URL.Hostname()) {
			return nil
		}
		hop := from.Host + " → " + SanitizeURL(req.URL.Scheme+"://"+req.URL.Host)
		return text.NewError(text.New(ErrCrossHostRedirect.ZH+"（"+hop+"）", ErrCrossHostRedirect.EN+" ("+hop+")"), ErrCrossHostRedirect)
	}
}

func sameHost(a, b string) bool { return strings.EqualFold(a, b) }
