"""Seeds chat-svc's SQLite file with ROOMS rooms of MESSAGES messages each (the bench user takes
part in the first), then times one room's search three ways: the query as it was (SQLite walks
the room's messages newest first and asks the index about each one), the phrase matched in every
room then filtered to the room, and the phrase matched in the room's partition of the index only
(what chat-svc does now)."""
import sqlite3
import sys
import time

path, app_id, user_id, rooms, messages = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
db = sqlite3.connect(path)
db.execute("PRAGMA busy_timeout = 5000")
with db:
    db.execute(f"""
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {rooms - 1})
        INSERT INTO room (id, app_id, pair_key, created_at, updated_at)
        SELECT '6740369b' || lower(hex(randomblob(8))), ?, 'bench:' || i, 1700000000000, 1700000000000 + {messages} FROM n
        """, (app_id,))
    room_ids = [row[0] for row in db.execute("SELECT id FROM room WHERE pair_key LIKE 'bench:%' ORDER BY rowid")]
    db.executemany("INSERT INTO participant (room_id, user_id, app_id, read_at) VALUES (?, ?, ?, 0)",
                   [(room_ids[0], user_id, app_id)] + [(room, '6740369b3a36e82f532ec7ff', app_id) for room in room_ids])
    started = time.time()
    for room in room_ids:
        db.execute(f"""
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {messages - 1})
            INSERT INTO chat (id, room_id, sender_id, content, created_at)
            SELECT lower(hex(randomblob(12))), ?, '6740369b3a36e82f532ec7ff',
                   '안녕하세요 오늘 같이 산책 갈까요 ' || i || CASE WHEN i % 100 = 0 THEN ' 드물게 나오는 말' ELSE '' END, 1700000000000 + i FROM n
            """, (room,))
    print(f"seeded {rooms} rooms x {messages} messages in {time.time() - started:.0f} s", flush=True)

room = room_ids[0]
key = db.execute("SELECT fts_room FROM chat WHERE room_id = ? LIMIT 1", (room,)).fetchone()[0]
columns = "chat.seq, chat.id, chat.room_id, chat.sender_id, chat.content, chat.files, chat.client_id, chat.created_at"
as_it_was = f"""SELECT {columns} FROM chat_fts JOIN chat ON chat.seq = chat_fts.rowid
                WHERE chat_fts MATCH ? AND chat.room_id = ? ORDER BY chat.created_at DESC LIMIT 20"""
index_first = as_it_was.replace(" JOIN ", " CROSS JOIN ")
for phrase, kind in [("산책 갈까", "in every message"), ("드물게 나오는", "in 1% of messages")]:
    quoted = '"' + phrase + '"'
    partition = f'fts_room : "{key}" AND content : {quoted}'
    for name, sql, match in [("as it was (the room's messages, each asked of the index)", as_it_was, quoted),
                             ("the phrase in every room, then this room", index_first, quoted),
                             ("the phrase in this room's partition (now)", index_first, partition)]:
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            found = db.execute(sql, (match, room)).fetchall()
            runs.append((time.perf_counter() - start) * 1000)
        print(f"search '{phrase}' ({kind}), {name}: {len(found)} found, best {min(runs):.1f} ms, median {sorted(runs)[2]:.1f} ms", flush=True)
print(room)
