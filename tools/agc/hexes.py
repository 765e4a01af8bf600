"""Hex geometry of data/agc/map.json: ids RRCC, rows 00-75 north to south, columns 00-99 east
to west, pointy-top, odd rows shifted west (map.json `grid`)."""


def rc(hid):
    return int(hid[:2]), int(hid[2:])


def hid(r, c):
    return "%02d%02d" % (r, c)


def neighbours(h):
    r, c = rc(h)
    if r % 2:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]
    else:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]
    return [hid(a, b) for a, b in cand if 0 <= a <= 75 and 0 <= b <= 99]


def cube(h):
    r, c = rc(h)
    x = -c  # columns rise westward; x rises eastward
    # odd rows are shifted west (toward -x): "even-r" in x terms
    q = x - (r + (r & 1)) // 2
    return q, r, -q - r


def distance(a, b):
    qa, ra, sa = cube(a)
    qb, rb, sb = cube(b)
    return max(abs(qa - qb), abs(ra - rb), abs(sa - sb))
