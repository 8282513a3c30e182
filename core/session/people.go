package session

import (
	"context"

	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
)

// StoredRating is one person's score of one drawn answer on one dimension
// as the run store keeps it.
type StoredRating struct {
	CheckID   int64
	Seq       int // the task in the draw
	Rater     string
	ItemID    string
	Set       string
	Dimension string
	Score     float64
}

// peopleBackend is the run store's side of the people checks: the spot
// check's draws and ratings, and the generator's reply cache.
// core/session/backend implements it beside Backend; it is a separate
// interface so that a backend without it still serves evaluations.
type peopleBackend interface {
	PutSpotCheck(ctx context.Context, storePath, design string) (int64, error)
	// LatestSpotCheck is the newest draw; ok is false when there is none.
	LatestSpotCheck(ctx context.Context, storePath string) (id int64, design string, ok bool, err error)
	PutHumanRating(ctx context.Context, storePath string, r StoredRating) error
	HumanRatings(ctx context.Context, storePath string, checkID int64) ([]StoredRating, error)
	// CachedCompleter is the endpoint's client (newCompleter's when set)
	// with every reply stored in the run store as it arrives; release
	// closes the store.
	CachedCompleter(storePath string, ep profile.Endpoint, newCompleter func(profile.Endpoint) (llm.Completer, error)) (c llm.Completer, release func() error, err error)
}

// people is the linked backend's people side.
func people() (peopleBackend, error) {
	if b, ok := be().(peopleBackend); ok {
		return b, nil
	}
	return nil, ErrNoBackend
}
