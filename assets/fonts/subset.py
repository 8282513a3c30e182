import sys
from fontTools.ttLib import TTCollection, TTFont, newTable
from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen

src = sys.argv[1]; out = sys.argv[2]
coll = TTCollection(src)
idx = None
for i, f in enumerate(coll.fonts):
    fam = f['name'].getDebugName(1)
    if fam == 'Noto Sans CJK SC':
        idx = i
print('face', idx, coll.fonts[idx]['name'].getDebugName(4))
font = TTFont(src, fontNumber=idx)

# What to keep: ASCII, Latin-1, general punctuation and symbols the product
# prints, CJK punctuation, full-width forms, and all 6,763 GB2312 Han.
cps = set(range(0x20, 0x7F)) | set(range(0xA0, 0x100))
cps |= set(range(0x2000, 0x2070)) | set(range(0x2190, 0x2200)) | set(range(0x2200, 0x2300))
cps |= set(range(0x25A0, 0x2600)) | set(range(0x2600, 0x2700)) & {0x26A0} | {0x2713, 0x2717, 0x0394, 0x03B1, 0x03B2, 0x03C3, 0x03BC, 0x2116, 0x2103}
cps |= set(range(0x3000, 0x3040)) | set(range(0xFF00, 0xFFF0)) | set(range(0x2460, 0x2474))
for hi in range(0xA1, 0xF8):
    for lo in range(0xA1, 0xFF):
        try:
            ch = bytes([hi, lo]).decode('gb2312')
        except UnicodeDecodeError:
            continue
        cps.add(ord(ch))
extra = open('extra.txt', encoding='utf-8').read() if len(sys.argv) < 4 else open(sys.argv[3], encoding='utf-8').read()
cps |= {ord(c) for c in extra if ord(c) > 0x7F}
opts = subset.Options()
opts.name_IDs = ['*']; opts.name_languages = ['*']; opts.notdef_outline = True
opts.layout_features = ['*']; opts.hinting = False; opts.desubroutinize = True
opts.drop_tables += ['VORG', 'vhea', 'vmtx', 'DSIG', 'BASE', 'GPOS', 'GSUB']
s = subset.Subsetter(opts); s.populate(unicodes=cps); s.subset(font)

# CFF → TrueType outlines (quadratic), as gonum/plot's sfnt and fpdf need.
gs = font.getGlyphSet(); order = font.getGlyphOrder()
glyphs = {}
for name in order:
    pen = TTGlyphPen(gs)
    gs[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
    glyphs[name] = pen.glyph()
del font['CFF ']
font['loca'] = newTable('loca')
glyf = font['glyf'] = newTable('glyf')
glyf.glyphOrder = order; glyf.glyphs = glyphs
font['maxp'] = maxp = newTable('maxp')
maxp.tableVersion = 0x00010000
for a in ('maxZones','maxTwilightPoints','maxStorage','maxFunctionDefs','maxInstructionDefs','maxStackElements','maxSizeOfInstructions','maxComponentElements'):
    setattr(maxp, a, 0)
maxp.maxZones = 1
maxp.numGlyphs = len(order)
font['head'].glyphDataFormat = 0
font['post'].formatType = 2.0; font['post'].extraNames = []; font['post'].mapping = {}
font['post'].glyphOrder = order
font.sfntVersion = '\x00\x01\x00\x00'
font.save(out)
print('glyphs', len(order))
