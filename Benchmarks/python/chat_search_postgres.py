"""chat-svc's search on PostgreSQL, measured on Korean text: seeds ROOMS rooms x MESSAGES messages
of Korean sentences (random words of a vocabulary, some Latin) into chat-svc's migrated database,
then runs queries of every kind (one syllable, two, inside a word, phrases with spaces, mixed
case Latin) the way chat-svc runs them (ILIKE on the room's part of the pg_trgm + btree_gin
index) and the same by brute force (strpos over every row of the table, no index), and prints
the recall (indexed ∩ brute / brute), whether the trigram index was used, and the times.

usage: chat_search_postgres.py PSQL DATABASE_URL ROOMS MESSAGES
"""
import json
import subprocess
import sys
import time

psql, url, rooms, messages = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])


def sql(text):
    return subprocess.run([psql, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", url, "-c", text], check=True, capture_output=True, text=True).stdout


words = ("안녕하세요 오늘 같이 산책 갈까요 강아지 사진 보내드릴게요 날씨가 좋네요 내일은 비가 온대요 점심 뭐 먹을까요 회의 시간이 "
         "변경되었습니다 확인 부탁드려요 주말에 공원에서 만나요 고마워요 정말 재미있었어요 다음에 또 봐요 우리 집 앞 카페 새로 "
         "생겼대요 커피 한잔 할래요 퇴근 후에 운동 가요 Glint OK 사진첩 산책로 강아지풀 비빔밥 김치찌개 떡볶이 서울 부산 제주도 "
         "여행 계획 세워요").split()
vocabulary = "ARRAY[" + ",".join("'" + w + "'" for w in words) + "]"
started = time.time()
sql(f"""
    INSERT INTO room (id, app_id, pair_key, created_at, updated_at)
    SELECT '6740369b' || lpad(to_hex(r), 16, '0'), 'bench', 'bench:' || r, 0, 0 FROM generate_series(1, {rooms}) r;
    INSERT INTO chat (id, room_id, sender_id, content, created_at)
    SELECT md5(r || ':' || i), '6740369b' || lpad(to_hex(r), 16, '0'), '6740369b3a36e82f532ec7ff',
           array_to_string(ARRAY(SELECT ({vocabulary})[1 + floor(random() * {len(words)})::int]
                                 FROM generate_series(1, 3 + (i % 9)) w WHERE w > -i), ' '),
           i
    FROM generate_series(1, {rooms}) r, generate_series(1, {messages}) i;
    ANALYZE chat;
    """)
print(f"seeded {rooms} rooms x {messages} messages of Korean text in {time.time() - started:.0f} s; "
      f"{sql('SELECT pg_size_pretty(pg_relation_size(' + chr(39) + 'chat_search' + chr(39) + '))').strip()} of trigram index", flush=True)

room = "6740369b" + format(rooms // 2, "016x")
queries = ["비", "산", "산책", "사진", "드릴", "녕하", "요 강", "같이 산책", "오늘 날씨가", "산책로", "강아지풀", "보내드릴게요",
           "변경되었습니다", "glint", "GLINT OK", "카페 새로", "없는말", "제주도 여행", "떡볶", "김치찌개 떡볶이"]
found = relevant = 0
rows = []
for q in queries:
    pattern = "%" + q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    literal = pattern.replace("'", "''")
    indexed_sql = f"SELECT id FROM chat WHERE room_id = '{room}' AND content ILIKE '{literal}'"
    plan = json.loads(sql(f"EXPLAIN (ANALYZE, FORMAT JSON) {indexed_sql} ORDER BY created_at DESC LIMIT 100"))[0]
    uses_index = "chat_search" in json.dumps(plan["Plan"])
    indexed = set(sql(indexed_sql).split())
    lowered = q.lower().replace("'", "''")
    brute_sql = f"SELECT id FROM chat WHERE room_id = '{room}' AND strpos(lower(content), '{lowered}') > 0"
    no_index = "SET enable_bitmapscan = off; SET enable_indexscan = off; "
    brute = set(sql(no_index + brute_sql).split())
    brute_ms = json.loads(sql(no_index + f"EXPLAIN (ANALYZE, FORMAT JSON) {brute_sql}"))[0]["Execution Time"]
    found += len(indexed & brute)
    relevant += len(brute)
    rows.append((q, len(brute), len(indexed & brute), len(indexed - brute), uses_index, plan["Execution Time"], brute_ms))
print(f"{'query':<16} {'relevant':>8} {'found':>6} {'extra':>6} {'index':>6} {'ms (100 newest)':>16} {'brute ms':>9}")
for q, n, f, extra, uses, ms, bms in rows:
    print(f"{q:<16} {n:>8} {f:>6} {extra:>6} {'yes' if uses else 'no':>6} {ms:>16.2f} {bms:>9.0f}")
print(f"recall on Korean text: {found}/{relevant} = {100 * found / max(relevant, 1):.1f}% (exact: {sum(r[3] for r in rows)} extra results)")
print(room)
