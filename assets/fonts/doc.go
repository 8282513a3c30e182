// Package fonts embeds two typefaces: Noto Sans CJK SC (a subset, for the
// charts and the PDF brief: a plain face fit for an official document) and,
// for the desktop theme, the whole of
// LXGW WenKai Regular (霞鹜文楷, SIL Open Font License 1.1, see OFL.txt), taken
// unmodified from Debian's fonts-lxgw-wenkai 1.250+repack-1.
//
// One face is used because gonum/plot draws each string with a single face and
// has no per-glyph fallback (spec/design.md, "Fyne notes"): a Han-only face such
// as DroidSansFallback drops the Latin letters and digits of a title like
// "评分分布 Score 0.85", and the WenQuanYi .ttc collections do not parse with
// golang.org/x/image/font/sfnt. WenKai covers ASCII, CJK punctuation and all
// 6,763 GB2312 Han characters (28,872 code points in all), is a plain TrueType
// (glyf) file rather than a collection, and so works both with gonum/plot and as
// a Fyne theme font. It is kept whole, not subset, because the theme also shows
// user text (guide titles, answers) that may use rare characters.
package fonts
