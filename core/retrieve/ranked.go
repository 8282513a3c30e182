package retrieve

// Ranked is one document of a rerank reply: its index in the request's
// document list and its relevance score. The HTTP client that produces it
// is package rerank; the type stays here so the methods that reorder by it
// (cofe) need no network package.
type Ranked struct {
	Index int
	Score float64
}
