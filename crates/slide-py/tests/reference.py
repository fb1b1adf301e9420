"""References written for the tests, independent of slide: a plain breadth-first search over whole boards (single-tile
and multi-tile moves, towards boards and towards patterns with free cells), an
interpreter of move sequences (tile numbers, and the blank's directions), and IDA* with the Manhattan distance."""

from collections import deque


def goal_of(rows, cols):
    """The default goal: 1..n-1 in reading order, the blank last, as a tuple."""
    n = rows * cols
    return tuple(list(range(1, n)) + [0])


def neighbours(cell, rows, cols):
    r, c = divmod(cell, cols)
    if r > 0:
        yield cell - cols
    if r < rows - 1:
        yield cell + cols
    if c > 0:
        yield cell - 1
    if c < cols - 1:
        yield cell + 1


def bfs(rows, cols, goal=None):
    """Distance of every board that can reach `goal` (tuples in reading order)."""
    goal = tuple(goal) if goal is not None else goal_of(rows, cols)
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        b = queue.popleft()
        z = b.index(0)
        for c in neighbours(z, rows, cols):
            nb = list(b)
            nb[z], nb[c] = nb[c], 0
            nb = tuple(nb)
            if nb not in dist:
                dist[nb] = dist[b] + 1
                queue.append(nb)
    return dist


def flat(board):
    return tuple(v for row in board for v in row)


def replay(board, moves):
    """Plays tile moves (each tile slides into the blank, which must be next to it); returns the flat board."""
    rows, cols = len(board), len(board[0])
    b = list(flat(board))
    for t in moves:
        z, c = b.index(0), b.index(t)
        assert c in set(neighbours(z, rows, cols)), f"tile {t} is not next to the blank"
        b[z], b[c] = t, 0
    return tuple(b)


def replay_blank(board, letters):
    """Plays the blank's directions U D L R; returns the flat board."""
    rows, cols = len(board), len(board[0])
    step = {"U": -cols, "D": cols, "L": -1, "R": 1}
    b = list(flat(board))
    for ch in letters:
        z = b.index(0)
        c = z + step[ch]
        r0, c0 = divmod(z, cols)
        r1, c1 = divmod(c, cols)
        assert 0 <= c < rows * cols and abs(r0 - r1) + abs(c0 - c1) == 1, f"blank cannot move {ch}"
        b[z], b[c] = b[c], 0
    return tuple(b)


def ida_manhattan(board):
    """The least number of moves to the default goal by IDA* with the Manhattan distance (small distances only)."""
    rows, cols = len(board), len(board[0])
    b = list(flat(board))
    n = rows * cols
    home = {t: (t - 1) for t in range(1, n)}

    def h(b):
        s = 0
        for cell, t in enumerate(b):
            if t:
                r0, c0 = divmod(cell, cols)
                r1, c1 = divmod(home[t], cols)
                s += abs(r0 - r1) + abs(c0 - c1)
        return s

    def dfs(g, bound, prev):
        est = h(b)
        f = g + est
        if f > bound:
            return f
        if est == 0:
            return -1
        z = b.index(0)
        best = 10**9
        for c in neighbours(z, rows, cols):
            if c == prev:
                continue
            b[z], b[c] = b[c], 0
            r = dfs(g + 1, bound, z)
            b[c], b[z] = b[z], 0
            if r == -1:
                return -1
            best = min(best, r)
        return best

    bound = h(b)
    while True:
        r = dfs(0, bound, -1)
        if r == -1:
            return bound
        bound = r


# Multi-tile moves (MTM): one move pushes 1..k tiles of the blank's row or column toward the blank.


def pushes(b, rows, cols):
    """Every board one push away from the flat board `b` (a tuple): the blank moves to any other cell of its row or
    column, the tiles between shifting one step toward where it was."""
    z = b.index(0)
    r, c = divmod(z, cols)
    out = []
    for step, count in ((-cols, r), (cols, rows - 1 - r), (-1, c), (1, cols - 1 - c)):
        nb = list(b)
        at = z
        for _ in range(count):
            nb[at], nb[at + step] = nb[at + step], 0
            at += step
            out.append(tuple(nb))
    return out


def bfs_mtm(rows, cols, goal=None):
    """MTM distance of every board that can reach `goal` (tuples in reading order)."""
    goal = tuple(goal) if goal is not None else goal_of(rows, cols)
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        b = queue.popleft()
        for nb in pushes(b, rows, cols):
            if nb not in dist:
                dist[nb] = dist[b] + 1
                queue.append(nb)
    return dist


def mtm_distance_from(board, goal=None, limit=8):
    """MTM distance from `board` (rows) to `goal` (a flat tuple; default goal) by BFS from the board, for short
    distances (None beyond `limit`)."""
    rows, cols = len(board), len(board[0])
    goal = tuple(goal) if goal is not None else goal_of(rows, cols)
    start = flat(board)
    dist = {start: 0}
    frontier = [start]
    for d in range(limit + 1):
        if goal in dist:
            return dist[goal]
        nxt = []
        for b in frontier:
            for nb in pushes(b, rows, cols):
                if nb not in dist:
                    dist[nb] = d + 1
                    nxt.append(nb)
        frontier = nxt
    return dist.get(goal)


def runs(board, moves):
    """The number of maximal runs of one direction of the blank in the tile moves: their MTM length (pushes)."""
    cols = len(board[0])
    b = list(flat(board))
    count, last = 0, None
    for t in moves:
        z, c = b.index(0), b.index(t)
        d = c - z
        if d != last:
            count += 1
            last = d
        b[z], b[c] = t, 0
    return count


def tile_letters(blank_letters, short=False):
    """The tiles' letters (the community convention: the opposite of the blank's), runs collapsed with `short`."""
    flip = {"U": "D", "D": "U", "L": "R", "R": "L"}
    letters = "".join(flip[ch] for ch in blank_letters)
    if not short:
        return letters
    out, i = [], 0
    while i < len(letters):
        j = i
        while j < len(letters) and letters[j] == letters[i]:
            j += 1
        out.append(letters[i] + (str(j - i) if j - i > 1 else ""))
        i = j
    return "".join(out)


# Partial goals: patterns with None for any tile.


def matches(b, pattern):
    """Whether the flat board `b` matches the flat pattern (None: any value)."""
    return all(p is None or p == v for p, v in zip(pattern, b))


def bfs_pattern(rows, cols, pattern, mtm=False):
    """Distance (STM, or MTM with `mtm`) of every board from which a board matching `pattern` (a flat tuple with
    None for any tile) can be reached: breadth-first search from all matching boards at once (moves are
    reversible)."""
    import itertools

    n = rows * cols
    named = {v for v in pattern if v is not None}
    free = [v for v in range(n) if v not in named]
    holes = [i for i, v in enumerate(pattern) if v is None]
    dist = {}
    queue = deque()
    for perm in itertools.permutations(free):
        b = list(pattern)
        for i, v in zip(holes, perm):
            b[i] = v
        b = tuple(b)
        dist[b] = 0
        queue.append(b)
    while queue:
        b = queue.popleft()
        if mtm:
            nexts = pushes(b, rows, cols)
        else:
            z = b.index(0)
            nexts = []
            for c in neighbours(z, rows, cols):
                nb = list(b)
                nb[z], nb[c] = nb[c], 0
                nexts.append(tuple(nb))
        for nb in nexts:
            if nb not in dist:
                dist[nb] = dist[b] + 1
                queue.append(nb)
    return dist


def distance_to_pattern(board, pattern, limit=40):
    """STM distance from `board` (rows) to the nearest board matching `pattern` (flat, None for any) by BFS from the
    board (None beyond `limit`)."""
    rows, cols = len(board), len(board[0])
    start = flat(board)
    seen = {start}
    frontier = [start]
    for d in range(limit + 1):
        if any(matches(b, pattern) for b in frontier):
            return d
        nxt = []
        for b in frontier:
            z = b.index(0)
            for c in neighbours(z, rows, cols):
                nb = list(b)
                nb[z], nb[c] = nb[c], 0
                nb = tuple(nb)
                if nb not in seen:
                    seen.add(nb)
                    nxt.append(nb)
        frontier = nxt
    return None
