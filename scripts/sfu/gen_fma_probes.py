#!/usr/bin/env python3
"""gen_fma_probes.py: small PTX kernels, one per question about when ptxas
contracts a mul and an add/sub into one FMA (f32, f64, f16x2, f16, bf16).
Writes fma_probes.ptx; each kernel's comment says the case."""
import sys

T = {'f32': ('.f32', '%f', 'ld.global.f32', 'st.global.f32', 4),
     'f64': ('.f64', '%fd', 'ld.global.f64', 'st.global.f64', 8),
     'f16x2': ('.f16x2', '%r', 'ld.global.b32', 'st.global.b32', 4),
     'f16': ('.f16', '%h', 'ld.global.b16', 'st.global.b16', 2),
     'bf16x2': ('.bf16x2', '%r', 'ld.global.b32', 'st.global.b32', 4)}

cases = []
MOV = {'f32': '.f32', 'f64': '.f64', 'f16x2': '.b32', 'f16': '.b16', 'bf16x2': '.b32'}
def case(name, ty, body, desc):
    cases.append((name, ty, body, desc))

for ty in ['f32', 'f64', 'f16x2', 'f16', 'bf16x2']:
    s = T[ty][0]
    case(f'{ty}_basic', ty, [f'mul{s} R3, R0, R1;', f'add{s} R4, R3, R2;', 'ST R4'], 'mul then add, single use')
    case(f'{ty}_sub', ty, [f'mul{s} R3, R0, R1;', f'sub{s} R4, R3, R2;', 'ST R4'], 'a*b - c')
    case(f'{ty}_rsub', ty, [f'mul{s} R3, R0, R1;', f'sub{s} R4, R2, R3;', 'ST R4'], 'c - a*b')
    case(f'{ty}_twouse', ty, [f'mul{s} R3, R0, R1;', f'add{s} R4, R3, R2;', 'ST R4', 'ST R3'], 'mul result also stored')
    case(f'{ty}_mulrn', ty, [f'mul.rn{s} R3, R0, R1;', f'add{s} R4, R3, R2;', 'ST R4'], 'mul.rn')
    case(f'{ty}_addrn', ty, [f'mul{s} R3, R0, R1;', f'add.rn{s} R4, R3, R2;', 'ST R4'], 'add.rn')
    if ty in ('f32',):
        case(f'{ty}_mulftz', ty, [f'mul.ftz{s} R3, R0, R1;', f'add{s} R4, R3, R2;', 'ST R4'], 'mul.ftz, add')
        case(f'{ty}_addftz', ty, [f'mul{s} R3, R0, R1;', f'add.ftz{s} R4, R3, R2;', 'ST R4'], 'mul, add.ftz')
        case(f'{ty}_bothftz', ty, [f'mul.ftz{s} R3, R0, R1;', f'add.ftz{s} R4, R3, R2;', 'ST R4'], 'both ftz')
        case(f'{ty}_mulsat', ty, [f'mul.sat{s} R3, R0, R1;', f'add{s} R4, R3, R2;', 'ST R4'], 'mul.sat')
        case(f'{ty}_addsat', ty, [f'mul{s} R3, R0, R1;', f'add.sat{s} R4, R3, R2;', 'ST R4'], 'add.sat')
        case(f'{ty}_ftzsat', ty, [f'mul.ftz{s} R3, R0, R1;', f'add.ftz.sat{s} R4, R3, R2;', 'ST R4'], 'mul.ftz add.ftz.sat')
    case(f'{ty}_twoadds', ty, [f'mul{s} R3, R0, R1;', f'add{s} R4, R3, R2;', f'add{s} R5, R3, R0;', 'ST R4', 'ST R5'], 'one mul, two adds')
    case(f'{ty}_twomuls', ty, [f'mul{s} R3, R0, R1;', f'mul{s} R5, R2, R0;', f'add{s} R4, R3, R5;', 'ST R4'], 'a*b + c*a')
    case(f'{ty}_predmul', ty, ['setp.ne.s32 %p1, %rin, 0;', f'mov{MOV[ty]} R3, R2;', f'@%p1 mul{s} R3, R0, R1;', f'add{s} R4, R3, R2;', 'ST R4'], 'predicated mul')
    case(f'{ty}_predadd', ty, ['setp.ne.s32 %p1, %rin, 0;', f'mov{MOV[ty]} R4, R2;', f'mul{s} R3, R0, R1;', f'@%p1 add{s} R4, R3, R2;', 'ST R4'], 'predicated add')
    case(f'{ty}_predboth', ty, ['setp.ne.s32 %p1, %rin, 0;', f'mov{MOV[ty]} R4, R2;', f'@%p1 mul{s} R3, R0, R1;', f'@%p1 add{s} R4, R3, R2;', 'ST R4'], 'both predicated')
    case(f'{ty}_branch', ty, [f'mul{s} R3, R0, R1;', 'setp.ne.s32 %p1, %rin, 0;', '@%p1 bra $L_skip;', f'add{s} R4, R3, R2;', 'ST R4', '$L_skip:', 'ST R3'], 'mul before a branch, add in the next block')
    case(f'{ty}_branch1', ty, [f'mul{s} R3, R0, R1;', 'setp.ne.s32 %p1, %rin, 0;', '@%p1 bra $L_skip;', f'add{s} R4, R3, R2;', 'ST R4', '$L_skip:'], 'mul before a branch, add in the next block, single use')
    case(f'{ty}_bar', ty, [f'mul{s} R3, R0, R1;', 'bar.sync 0;', f'add{s} R4, R3, R2;', 'ST R4'], 'bar.sync between')
    if ty in ('f32', 'f64'):
        case(f'{ty}_imm', ty, [f'mul{s} R3, R0, IMM;', f'add{s} R4, R3, R2;', 'ST R4'], 'mul by an immediate')
    case(f'{ty}_addmul2', ty, [f'mul{s} R3, R0, R1;', f'add{s} R4, R3, R3;', 'ST R4'], 'x*y + x*y (same mul twice in one add)')
    case(f'{ty}_chain', ty, [f'mul{s} R3, R0, R1;', f'add{s} R4, R3, R2;', f'mul{s} R5, R4, R0;', f'sub{s} R6, R5, R1;', 'ST R6'], 'two pairs in a chain')
    case(f'{ty}_negmul', ty, [f'mul{s} R3, R0, R1;', f'neg{s} R5, R3;', f'add{s} R4, R5, R2;', 'ST R4'], 'neg between mul and add')
    case(f'{ty}_loopcarried', ty, ['mov.u32 %rk, 0;', '$L_loop:', f'mul{s} R3, R0, R1;', f'add{s} R0, R3, R2;', 'add.u32 %rk, %rk, 1;', 'setp.lt.u32 %p1, %rk, %rin;', '@%p1 bra $L_loop;', 'ST R0'], 'in a loop')

IMMS = {'f32': '0f40490FDB', 'f64': '0d400921FB54442D18', 'f16x2': '0x40004000', 'f16': '0x4000', 'bf16x2': '0x40004000'}

def kernel(name, ty, body, desc):
    s, rp, ld, st, size = T[ty]
    regs = {}
    out = [f'// {desc}', f'.visible .entry {name}(.param .u64 pa, .param .u32 pn)', '{',
           '  .reg .pred %p<4>; .reg .b32 %rin, %rk; .reg .b64 %rd<8>;']
    decl = {'f32': '.reg .f32 %f<12>;', 'f64': '.reg .f64 %fd<12>;', 'f16x2': '.reg .b32 %r<12>;',
            'f16': '.reg .b16 %h<12>;', 'bf16x2': '.reg .b32 %r<12>;'}[ty]
    out.append('  ' + decl)
    out += ['  ld.param.u64 %rd1, [pa];', '  ld.param.u32 %rin, [pn];', '  cvta.to.global.u64 %rd1, %rd1;']
    for k in range(3):
        out.append(f'  {ld} {rp}{k}, [%rd1+{k*size}];')
    nst = 0
    for line in body:
        if line.startswith('ST '):
            r = line[3:]
            out.append(f'  {st} [%rd1+{(8+nst)*size}], {rp}{r[1:]};')
            nst += 1
            continue
        import re
        line = re.sub(r'\bR(\d+)', lambda m: rp + m.group(1), line)
        line = line.replace('IMM', IMMS[ty])
        out.append('  ' + line)
    out += ['  ret;', '}', '']
    return '\n'.join(out)

hdr = '.version 8.0\n.target sm_90\n.address_size 64\n\n'
with open(sys.argv[1] if len(sys.argv) > 1 else 'fma_probes.ptx', 'w') as f:
    f.write(hdr + '\n'.join(kernel(*c) for c in cases))
print(len(cases), 'kernels')
