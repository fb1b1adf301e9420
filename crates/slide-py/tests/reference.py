"""References written for the tests, independent of slide: a plain breadth-first search over whole boards, an
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
