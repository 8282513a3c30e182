// Package explain says why a verdict is what it is, once, so that the
// window, the CLI and the Excel report show the same words: three to five
// plain bullets with the numbers behind them, the weakest questions and
// why each is weak, recommendations of which at least one changes the
// system whenever the verdict is below deployable, how many questions
// would narrow the 95 % interval to ±5 points, and banners when the judge
// is a baseline rather than an LLM or the data is the bundled fictional
// sample. It only reads a CuBE result and the workbook; nothing here calls
// a model, reads a file or imports the engine (so the engine may import it).
package explain
