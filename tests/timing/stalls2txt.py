#!/usr/bin/env python3
"""stalls2txt.py: distils Nsight Compute's per-SASS-instruction warp-stall
samples of a timing-suite family into traces/hw/timing-stalls-h100.txt.

Input, per family (tests/timing/families.txt), from a GPU machine:

  ncu --cache-control all --clock-control base --section WarpStateStats \\
      --section SourceCounters --section LaunchStats --section Occupancy \\
      -o FAMILY ./hw_record tests/timing/families.txt FAMILY
  ncu --import FAMILY.ncu-rep --page source --print-source sass --csv > FAMILY-sass.csv
  ncu --import FAMILY.ncu-rep --page details --csv > FAMILY-details.csv

The backend's 200 us head-start kernel (warpsim_hold) before every launch is
skipped.  For each launch: the details page's achieved occupancy and warp
cycles per issued instruction, the warps' mean life (cycles per issued
instruction x instructions a warp), and every SASS instruction that drew
samples with its share of that life by stall reason (samples scaled to cycles
a warp).  Usage: stalls2txt.py DIR FAMILY... > traces/hw/timing-stalls-h100.txt
"""
import collections
import csv
import sys

REASONS = ['barrier', 'branch_resolving', 'dispatch', 'drain', 'imc', 'lg', 'long_sb', 'math', 'membar', 'mio',
           'misc', 'no_inst', 'not_selected', 'selected', 'short_sb', 'sleep', 'tex', 'wait']


def num(s):
    try:
        return float(s.replace(',', ''))
    except ValueError:
        return 0.0


def details(path):
    rows = list(csv.reader(open(path)))
    hdr = rows[0]
    out = collections.OrderedDict()
    for r in rows[1:]:
        d = dict(zip(hdr, r))
        if d['Kernel Name'] == 'warpsim_hold':
            continue
        m = out.setdefault((d['ID'], d['Kernel Name']), {})
        if d['Metric Name']:
            m[d['Metric Name']] = d['Metric Value']
    return list(out.items())


def sass(path):
    """Per launch: its SASS rows (the page repeats each launch's table; the
    copies are checked equal)."""
    groups, cur, hdr = [], None, None
    for r in csv.reader(open(path)):
        if r and r[0] == 'Kernel Name':
            if r[1] == 'warpsim_hold':
                groups.append([])
                cur = None
            else:
                cur = {'name': r[1], 'rows': []}
                groups[-1].append(cur)
            hdr = None
        elif r and r[0] == 'Address':
            hdr = r
        elif hdr and r and cur is not None:
            cur['rows'].append(dict(zip(hdr, r)))
    for g in groups:
        assert all(c['rows'] == g[0]['rows'] for c in g), 'copies of one launch differ'
    return [g[0] for g in groups if g]


def family(d, fam, names):
    det = details(f'{d}/{fam}-details.csv')
    launches = sass(f'{d}/{fam}-sass.csv')
    assert len(det) == len(launches), (fam, len(det), len(launches))
    print(f'## {fam}\n')
    for i, ((_, kernel), m) in enumerate(det):
        rows = launches[i]['rows']
        assert launches[i]['name'] == kernel
        total = sum(num(r['Warp Stall Sampling (All Samples)']) for r in rows)
        executed = sum(num(r['Instructions Executed']) for r in rows)
        warps = num(m['Grid Size']) * ((num(m['Block Size']) + 31) // 32)
        cpi = num(m['Warp Cycles Per Issued Instruction'])
        life = cpi * executed / warps
        name = names[i] if i < len(names) else str(i)
        print(f'### {fam} {name}: {kernel}, {warps:.0f} warps, achieved occupancy {num(m["Achieved Occupancy"]):.2f}%, '
              f'{cpi:.2f} warp cycles per issued instruction x {executed / warps:.1f} instructions a warp = '
              f'a warp lives {life:.0f} cycles; {total:.0f} samples')
        print('cycles a warp at each instruction (samples / all samples x life), by stall reason:')
        for r in rows:
            s = num(r['Warp Stall Sampling (All Samples)'])
            if not s:
                continue
            parts = ' '.join(f'{k}={num(r["stall_" + k]) / total * life:.0f}' for k in REASONS
                             if num(r.get('stall_' + k, '0')))
            print(f'  {r["Source"].strip()[:46]:46s} {s / total * life:7.0f}  {parts}')
        print()


def launch_names(fam):
    out, cur = [], None
    for line in open('tests/timing/families.txt'):
        t = line.split()
        if t and t[0] == 'family':
            cur = t[1]
        elif t and t[0] == 'launch' and cur == fam:
            out.append(t[1])
    return out


if __name__ == '__main__':
    d = sys.argv[1]
    for fam in sys.argv[2:]:
        family(d, fam, launch_names(fam))
