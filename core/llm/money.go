package llm

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Money writes an amount in its currency for people: ¥ for CNY, $ for
// USD, the code otherwise; a currency the profile did not state is said so.
func Money(amount float64, currency, lang string) string {
	switch strings.ToUpper(currency) {
	case "CNY", "RMB":
		if lang == "zh" {
			return fmt.Sprintf("%.4f 元", amount)
		}
		return fmt.Sprintf("¥%.4f", amount)
	case "USD":
		if lang == "zh" {
			return fmt.Sprintf("%.4f 美元", amount)
		}
		return fmt.Sprintf("$%.4f", amount)
	case "":
		if lang == "zh" {
			return fmt.Sprintf("%.4f（未注明币种）", amount)
		}
		return fmt.Sprintf("%.4f (currency not stated)", amount)
	}
	return fmt.Sprintf("%.4f %s", amount, strings.ToUpper(currency))
}

// Spent says what calls cost: each currency apart (never added across
// currencies), and the endpoints without a price as unknown, never as free.
// "" when there is nothing to say (no call was made).
func Spent(costBy map[string]float64, unpriced []string, lang string) string {
	var parts []string
	for _, cur := range slices.Sorted(maps.Keys(costBy)) {
		parts = append(parts, Money(costBy[cur], cur, lang))
	}
	out := strings.Join(parts, " + ")
	if len(unpriced) > 0 {
		sep, unknown := "; ", fmt.Sprintf("unknown for %s (no price in the profile)", strings.Join(unpriced, ", "))
		if lang == "zh" {
			sep, unknown = "；", fmt.Sprintf("%s 未填价格，费用未知", strings.Join(unpriced, "、"))
		}
		if out != "" {
			out += sep
		}
		out += unknown
	}
	return out
}
