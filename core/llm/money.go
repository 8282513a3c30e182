package llm

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"cubeworkbench/core/text"
)

// Money writes an amount in its currency for people: ¥ for CNY, $ for
// USD, the code otherwise; a currency the profile did not state is said so.
func Money(amount float64, currency string, lang text.Lang) string {
	return moneyText(amount, currency).In(lang)
}

// moneyText is an amount in its currency in both languages.
func moneyText(amount float64, currency string) text.Text {
	switch strings.ToUpper(currency) {
	case "CNY", "RMB":
		return text.New(fmt.Sprintf("%.4f 元", amount), fmt.Sprintf("¥%.4f", amount))
	case "USD":
		return text.New(fmt.Sprintf("%.4f 美元", amount), fmt.Sprintf("$%.4f", amount))
	case "":
		return text.New(fmt.Sprintf("%.4f（未注明币种）", amount), fmt.Sprintf("%.4f (currency not stated)", amount))
	}
	s := fmt.Sprintf("%.4f %s", amount, strings.ToUpper(currency))
	return text.New(s, s)
}

// Spent says what calls cost: each currency apart (never added across
// currencies), and the endpoints without a price as unknown, never as free.
// "" when there is nothing to say (no call was made).
func Spent(costBy map[string]float64, unpriced []string, lang text.Lang) string {
	var parts []text.Text
	for _, cur := range slices.Sorted(maps.Keys(costBy)) {
		parts = append(parts, moneyText(costBy[cur], cur))
	}
	out := text.Join(parts, " + ")
	if len(unpriced) > 0 {
		unknown := text.New(fmt.Sprintf("%s 未填价格，费用未知", strings.Join(unpriced, "、")),
			fmt.Sprintf("unknown for %s (no price in the profile)", strings.Join(unpriced, ", ")))
		if !out.IsZero() {
			out = text.JoinWith([]text.Text{out, unknown}, text.New("；", "; "))
		} else {
			out = unknown
		}
	}
	return out.In(lang)
}
