#!/usr/bin/env python3
"""contraction_truth.py: which mul/add pairs ptxas contracts into one FMA,
read from the machine code ptxas writes, for each PTX file given.

For every add/sub of a float type without a rounding modifier whose operand
comes from a mul of that type without one, the file is assembled twice
(ptxas -arch=sm_90): as written, and with that one add/sub made .rn (which
forbids contracting it).  If the second has one more FADD/DADD/HADD2 than the
first, ptxas had fused that pair.  Instructions are counted from the cubin's
.text sections (opcode: low 9 bits of each 128-bit instruction; FADD 0x021,
DADD 0x029, HADD2 0x030, the encodings cuobjdump -sass shows on sm_90), or
with cuobjdump -sass when --cuobjdump is given.

usage: contraction_truth.py [--cuobjdump] FILE.ptx ...   (prints the record)
"""
import os, re, struct, subprocess, sys, tempfile

FTYPES = ('f32', 'f64', 'f16', 'f16x2', 'bf16', 'bf16x2')
RND = ('rn', 'rz', 'rm', 'rp')
ADD_OPS = {0x021, 0x029, 0x030}
USE_CUOBJDUMP = False

def text_opcodes(cubin):
    b = open(cubin, 'rb').read()
    shoff, = struct.unpack_from('<Q', b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
    secs = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize) for i in range(shnum)]
    stro = secs[shstrndx][4]
    def name(o):
        e = b.index(b'\0', stro + o)
        return b[stro + o:e].decode()
    ops = []
    for s in secs:
        if name(s[0]).startswith('.text.'):
            off, size = s[4], s[5]
            for k in range(0, size, 16):
                lo, = struct.unpack_from('<Q', b, off + k)
                ops.append(lo & 0x1ff)
    return ops

def count_adds(ptx_text, tmp):
    p = os.path.join(tmp, 'k.ptx'); c = os.path.join(tmp, 'k.cubin')
    open(p, 'w').write(ptx_text)
    r = subprocess.run(['ptxas', '-arch=sm_90', p, '-o', c], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(r.stderr)
    if USE_CUOBJDUMP:
        s = subprocess.run(['cuobjdump', '-sass', c], capture_output=True, text=True).stdout
        return len(re.findall(r'\b(FADD|DADD|HADD2)(\.\S+)?\s', s))
    return sum(1 for o in text_opcodes(c) if o in ADD_OPS)

INST = re.compile(r'^(\s*)(@!?%\w+\s+)?(add|sub|mul|neg)((?:\.\w+)+)\s+([^;]*);')

def parse(lines):
    """Candidate adds: (line index, mul line index) pairs."""
    muls = {}        # register -> line of the mul defining it (type, no rounding)
    cands = []
    for i, l in enumerate(lines):
        if re.match(r'\s*(\.visible\s+|\.weak\s+)?(\.entry|\.func)\b', l):
            muls = {}
        m = INST.match(l)
        if not m:
            continue
        op, mods = m.group(3), m.group(4).split('.')[1:]
        ty = [x for x in mods if x in FTYPES]
        if len(ty) != 1 or any(x in RND for x in mods):
            continue
        ops = [x.strip() for x in m.group(5).split(',')]
        if op == 'mul':
            if not m.group(2):
                muls[ops[0]] = (i, ty[0])
            continue
        if op == 'neg':     # a negated product may still be fused
            if ops[1] in muls and not m.group(2):
                muls[ops[0]] = muls[ops[1]]
            continue
        for o in ops[1:3]:
            o = o.lstrip('-')
            if o in muls and muls[o][1] == ty[0]:
                cands.append((i, muls[o][0]))
                break
    return cands

def main():
    global USE_CUOBJDUMP
    args = sys.argv[1:]
    if args and args[0] == '--cuobjdump':
        USE_CUOBJDUMP = True
        args = args[1:]
    print('# PTX file, line of the add/sub, line of the mul feeding it, fused (1) or not (0) by ptxas -arch=sm_90')
    with tempfile.TemporaryDirectory() as tmp:
        for f in args:
            text = open(f).read()
            lines = text.split('\n')
            cands = parse(lines)
            if not cands:
                continue
            base = count_adds(text, tmp)
            for i, mi in cands:
                v = lines[:]
                v[i] = re.sub(r'\b(add|sub)\.', r'\1.rn.', v[i], count=1)
                n = count_adds('\n'.join(v), tmp)
                print(f'{f} {i + 1} {mi + 1} {1 if n > base else 0}')

if __name__ == '__main__':
    main()
