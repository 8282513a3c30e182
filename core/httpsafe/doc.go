// Package httpsafe is what every HTTP client of the tool shares so that no
// connector leaks a secret or talks to a host the profile did not name:
//
//   - NewClient builds the *http.Client that the judge, embeddings, reranker
//     and target connectors use: its redirect policy refuses a redirect to
//     another host (a 307 would otherwise re-send the guide, the question and
//     the key's request there and let that host's scores count) unless the
//     endpoint allows redirects explicitly.
//   - Register and Redact form one redaction for every key the process knows:
//     each configured key is registered when it is read (core/secret does it),
//     and every message that can reach a report, SUMMARY.json, the store or
//     stderr goes through Redact, which also blanks Bearer tokens, URL
//     passwords and secret-looking query parameters it was never told about.
//   - SanitizeURL strips the password and secret query parameters from a URL
//     before it is stored.
package httpsafe
