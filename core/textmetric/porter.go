package textmetric

// PorterStem stems one lowercase ASCII word the way NLTK's PorterStemmer does
// in its default NLTK_EXTENSIONS mode, which is what rouge-score calls when
// use_stemmer is set. Matching NLTK rather than the 1980 paper matters: the
// extensions (irregular forms, "ies"/"ied" on four-letter words, the
// "alli" and "logi" rules, no stemming of words of length ≤ 2) change scores.
func PorterStem(word string) string {
	if stem, ok := porterIrregular[word]; ok {
		return stem
	}
	if len(word) <= 2 {
		return word
	}
	w := []byte(word)
	w = step1a(w)
	w = step1b(w)
	w = step1c(w)
	w = step2(w)
	w = step3(w)
	w = step4(w)
	w = step5a(w)
	w = step5b(w)
	return string(w)
}

var porterIrregular = map[string]string{
	"skies": "sky", "sky": "sky",
	"dying": "die", "lying": "lie", "tying": "tie",
	"news":    "news",
	"innings": "inning", "inning": "inning",
	"outings": "outing", "outing": "outing",
	"cannings": "canning", "canning": "canning",
	"howe":    "howe",
	"proceed": "proceed", "exceed": "exceed", "succeed": "succeed",
}

func isConsonant(w []byte, i int) bool {
	switch w[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		if i == 0 {
			return true
		}
		return !isConsonant(w, i-1)
	}
	return true
}

// measure is Porter's m: the number of vowel→consonant transitions.
func measure(stem []byte) int {
	m := 0
	prevVowel := false
	for i := range stem {
		c := isConsonant(stem, i)
		if c && prevVowel {
			m++
		}
		prevVowel = !c
	}
	return m
}

func containsVowel(stem []byte) bool {
	for i := range stem {
		if !isConsonant(stem, i) {
			return true
		}
	}
	return false
}

func endsDoubleConsonant(w []byte) bool {
	n := len(w)
	return n >= 2 && w[n-1] == w[n-2] && isConsonant(w, n-1)
}

// endsCVC is Porter's *o condition, with NLTK's extension for two-letter stems.
func endsCVC(w []byte) bool {
	n := len(w)
	if n >= 3 && isConsonant(w, n-3) && !isConsonant(w, n-2) && isConsonant(w, n-1) {
		switch w[n-1] {
		case 'w', 'x', 'y':
			return false
		}
		return true
	}
	return n == 2 && !isConsonant(w, 0) && isConsonant(w, 1)
}

func hasSuffix(w []byte, s string) bool {
	return len(w) >= len(s) && string(w[len(w)-len(s):]) == s
}

// withSuffix returns a copy of stem followed by suffix.
func withSuffix(stem []byte, suffix string) []byte {
	out := make([]byte, 0, len(stem)+len(suffix))
	return append(append(out, stem...), suffix...)
}

type porterRule struct {
	suffix, replacement string
	cond                func(stem []byte) bool // nil = unconditional
}

// applyRules mirrors NLTK's _apply_rule_list: the first rule whose suffix
// matches decides; if its condition fails the word is returned unchanged.
// The suffix "*d" stands for any double consonant.
func applyRules(w []byte, rules []porterRule) []byte {
	for _, r := range rules {
		if r.suffix == "*d" {
			if endsDoubleConsonant(w) {
				stem := w[:len(w)-2]
				if r.cond == nil || r.cond(stem) {
					return withSuffix(stem, r.replacement)
				}
				return w
			}
			continue
		}
		if hasSuffix(w, r.suffix) {
			stem := w[:len(w)-len(r.suffix)]
			if r.cond == nil || r.cond(stem) {
				return withSuffix(stem, r.replacement)
			}
			return w
		}
	}
	return w
}

func positiveMeasure(stem []byte) bool { return measure(stem) > 0 }
func measureGT1(stem []byte) bool      { return measure(stem) > 1 }

func step1a(w []byte) []byte {
	if hasSuffix(w, "ies") && len(w) == 4 {
		return withSuffix(w[:len(w)-3], "ie")
	}
	return applyRules(w, []porterRule{
		{"sses", "ss", nil},
		{"ies", "i", nil},
		{"ss", "ss", nil},
		{"s", "", nil},
	})
}

func step1b(w []byte) []byte {
	if hasSuffix(w, "ied") {
		if len(w) == 4 {
			return withSuffix(w[:len(w)-3], "ie")
		}
		return withSuffix(w[:len(w)-3], "i")
	}
	if hasSuffix(w, "eed") {
		stem := w[:len(w)-3]
		if measure(stem) > 0 {
			return withSuffix(stem, "ee")
		}
		return w
	}
	var stem []byte
	ok := false
	for _, suf := range []string{"ed", "ing"} {
		if hasSuffix(w, suf) {
			s := w[:len(w)-len(suf)]
			if containsVowel(s) {
				stem, ok = s, true
				break
			}
		}
	}
	if !ok {
		return w
	}
	last := stem[len(stem)-1]
	return applyRules(stem, []porterRule{
		{"at", "ate", nil},
		{"bl", "ble", nil},
		{"iz", "ize", nil},
		{"*d", string(last), func([]byte) bool { return last != 'l' && last != 's' && last != 'z' }},
		{"", "e", func(s []byte) bool { return measure(s) == 1 && endsCVC(s) }},
	})
}

func step1c(w []byte) []byte {
	return applyRules(w, []porterRule{
		{"y", "i", func(s []byte) bool { return len(s) > 1 && isConsonant(s, len(s)-1) }},
	})
}

var step2Rules = []porterRule{
	{"ational", "ate", positiveMeasure},
	{"tional", "tion", positiveMeasure},
	{"enci", "ence", positiveMeasure},
	{"anci", "ance", positiveMeasure},
	{"izer", "ize", positiveMeasure},
	{"bli", "ble", positiveMeasure},
	{"alli", "al", positiveMeasure},
	{"entli", "ent", positiveMeasure},
	{"eli", "e", positiveMeasure},
	{"ousli", "ous", positiveMeasure},
	{"ization", "ize", positiveMeasure},
	{"ation", "ate", positiveMeasure},
	{"ator", "ate", positiveMeasure},
	{"alism", "al", positiveMeasure},
	{"iveness", "ive", positiveMeasure},
	{"fulness", "ful", positiveMeasure},
	{"ousness", "ous", positiveMeasure},
	{"aliti", "al", positiveMeasure},
	{"iviti", "ive", positiveMeasure},
	{"biliti", "ble", positiveMeasure},
	{"fulli", "ful", positiveMeasure},
}

func step2(w []byte) []byte {
	// NLTK applies ALLI → AL first and, on success, runs step 2 again.
	if hasSuffix(w, "alli") && positiveMeasure(w[:len(w)-4]) {
		return step2(withSuffix(w[:len(w)-4], "al"))
	}
	rules := append(step2Rules[:len(step2Rules):len(step2Rules)], porterRule{
		// "logi" → "log" with the l kept in the stem for the condition, so
		// that short stems such as geo- and theo- behave like philo-.
		"logi", "log", func(stem []byte) bool { return positiveMeasure(withSuffix(stem, "l")) },
	})
	return applyRules(w, rules)
}

var step3Rules = []porterRule{
	{"icate", "ic", positiveMeasure},
	{"ative", "", positiveMeasure},
	{"alize", "al", positiveMeasure},
	{"iciti", "ic", positiveMeasure},
	{"ical", "ic", positiveMeasure},
	{"ful", "", positiveMeasure},
	{"ness", "", positiveMeasure},
}

func step3(w []byte) []byte { return applyRules(w, step3Rules) }

var step4Rules = []porterRule{
	{"al", "", measureGT1},
	{"ance", "", measureGT1},
	{"ence", "", measureGT1},
	{"er", "", measureGT1},
	{"ic", "", measureGT1},
	{"able", "", measureGT1},
	{"ible", "", measureGT1},
	{"ant", "", measureGT1},
	{"ement", "", measureGT1},
	{"ment", "", measureGT1},
	{"ent", "", measureGT1},
	{"ion", "", func(s []byte) bool {
		return measure(s) > 1 && (s[len(s)-1] == 's' || s[len(s)-1] == 't')
	}},
	{"ou", "", measureGT1},
	{"ism", "", measureGT1},
	{"ate", "", measureGT1},
	{"iti", "", measureGT1},
	{"ous", "", measureGT1},
	{"ive", "", measureGT1},
	{"ize", "", measureGT1},
}

func step4(w []byte) []byte { return applyRules(w, step4Rules) }

func step5a(w []byte) []byte {
	if hasSuffix(w, "e") {
		stem := w[:len(w)-1]
		m := measure(stem)
		if m > 1 || (m == 1 && !endsCVC(stem)) {
			return stem
		}
	}
	return w
}

func step5b(w []byte) []byte {
	if hasSuffix(w, "ll") && measure(w[:len(w)-1]) > 1 {
		return w[:len(w)-1]
	}
	return w
}
