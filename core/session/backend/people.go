package backend

import (
	"context"

	"cubeworkbench/core/engine"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/secret"
	"cubeworkbench/core/session"
	"cubeworkbench/core/store"
)

// withStore runs f on the run store at path.
func withStore(path string, f func(*store.Store) error) error {
	st, err := store.Open(path)
	if err != nil {
		return err
	}
	defer st.Close()
	return f(st)
}

// PutSpotCheck stores a draw's design.
func (Backend) PutSpotCheck(ctx context.Context, storePath, design string) (id int64, err error) {
	err = withStore(storePath, func(st *store.Store) error {
		id, err = st.PutSpotCheck(ctx, design)
		return err
	})
	return id, err
}

// LatestSpotCheck reads the newest draw.
func (Backend) LatestSpotCheck(ctx context.Context, storePath string) (id int64, design string, ok bool, err error) {
	err = withStore(storePath, func(st *store.Store) error {
		var c store.SpotCheck
		c, ok, err = st.LatestSpotCheck(ctx)
		id, design = c.ID, c.Design
		return err
	})
	return id, design, ok, err
}

// PutHumanRating stores one rating as entered.
func (Backend) PutHumanRating(ctx context.Context, storePath string, r session.StoredRating) error {
	return withStore(storePath, func(st *store.Store) error {
		return st.PutHumanRating(ctx, store.HumanRating(r))
	})
}

// HumanRatings reads a draw's ratings.
func (Backend) HumanRatings(ctx context.Context, storePath string, checkID int64) (out []session.StoredRating, err error) {
	err = withStore(storePath, func(st *store.Store) error {
		rs, err := st.HumanRatings(ctx, checkID)
		for _, r := range rs {
			out = append(out, session.StoredRating(r))
		}
		return err
	})
	return out, err
}

// CachedCompleter is the endpoint's client behind the run store's cache.
func (Backend) CachedCompleter(storePath string, ep profile.Endpoint, newCompleter func(profile.Endpoint) (llm.Completer, error)) (llm.Completer, func() error, error) {
	var c llm.Completer
	var err error
	if newCompleter != nil {
		c, err = newCompleter(ep)
	} else {
		c, err = engine.NewCompleter(ep, secret.Generator(ep.Name))
	}
	if err != nil {
		return nil, nil, err
	}
	st, err := store.Open(storePath)
	if err != nil {
		return nil, nil, err
	}
	return st.Cache(c), st.Close, nil
}
