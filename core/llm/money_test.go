package llm

import (
	"testing"

	"cubeworkbench/core/text"
)

// Amounts keep their currency, are never added across currencies, and an
// endpoint without a price is unknown, never free.
func TestSpent(t *testing.T) {
	cases := []struct {
		by       map[string]float64
		unpriced []string
		lang     text.Lang
		want     string
	}{
		{map[string]float64{"CNY": 1.5}, nil, "zh", "1.5000 元"},
		{map[string]float64{"CNY": 1.5, "USD": 0.25}, nil, "en", "¥1.5000 + $0.2500"},
		{nil, []string{"qwen"}, "zh", "qwen 未填价格，费用未知"},
		{map[string]float64{"USD": 2}, []string{"local"}, "en", "$2.0000; unknown for local (no price in the profile)"},
		{map[string]float64{"": 2}, nil, "en", "2.0000 (currency not stated)"},
		{nil, nil, "zh", ""},
	}
	for _, c := range cases {
		if got := Spent(c.by, c.unpriced, c.lang); got != c.want {
			t.Errorf("Spent(%v, %v, %s) = %q, want %q", c.by, c.unpriced, c.lang, got, c.want)
		}
	}
}

// The meter keeps each currency apart and names unpriced endpoints.
func TestMeterCostByCurrency(t *testing.T) {
	var m Meter
	cny := Endpoint{Name: "ds", PriceInPerMTok: 2, PriceOutPerMTok: 8, Currency: "CNY"}
	usd := Endpoint{Name: "gpt", PriceInPerMTok: 0.15, PriceOutPerMTok: 0.6, Currency: "USD"}
	free := Endpoint{Name: "local"}
	u := Usage{PromptTokens: 1_000_000, CompletionTokens: 1_000_000}
	m.record(cny, u, true, tally{attempts: 1, replies: 1}, nil, false)
	m.record(usd, u, true, tally{attempts: 1, replies: 1}, nil, false)
	m.record(free, u, true, tally{attempts: 1, replies: 1}, nil, false)
	m.record(free, u, true, tally{attempts: 1, replies: 1}, nil, false)
	by, unpriced := m.Spending()
	if by["CNY"] != 10 || by["USD"] != 0.75 || len(unpriced) != 1 || unpriced[0] != "local" {
		t.Errorf("spending %v, unpriced %v", by, unpriced)
	}
}
