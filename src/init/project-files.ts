// What `kbbench init` writes: a small working project a team edits into its own (a workspace and
// three documents, a YAML suite including a CSV of questions, a CI workflow, a .gitignore).
// `kbbench run suite.yaml` of it passes against the embedded service (src/init/init.test.ts).

/** Relative path → contents. Written in this order; none is ever overwritten. */
export const PROJECT_FILES: ReadonlyArray<readonly [string, string]> = [
  [
    'suite.yaml',
    `# Your kbbench suite: the questions your knowledge base must answer, and how to judge each answer.
# Edit it, then: kbbench validate suite.yaml (sends nothing) · kbbench run suite.yaml
name: my-knowledge-base
# The documents the embedded reference service answers from (workspace.yaml lists docs/*.md).
# Against your live service instead: kbbench run suite.yaml --base-url URL --board B --chat C
workspace: workspace.yaml
models: [gpt-4o-mini, gpt-4o]
cases:
  # One question per row of questions.csv: \`expected\` is a contains check (promptfoo's file:// include).
  - file://questions.csv
  - id: no-invented-discount
    prompt: Do you give a student discount?
    assert:
      - not-contains: '50%'
threads:
  # A conversation: turns in order, each answer checked.
  - id: book-then-cancel
    turns:
      - prompt: How much does it cost to rent a city bike for a day?
        assert: [ { contains: €25 } ]
      - prompt: And if I cancel my booking the day before?
        assert: [ { icontains: free of charge } ]
thresholds:
  pass_rate: ['rate>=0.9']
  latency_ms: ['p(95)<15000']
`,
  ],
  [
    'questions.csv',
    `id,prompt,expected
deposit,How much is the deposit for an e-bike?,€300
day-price,How much does a city bike cost per day?,€25
opening-hours,When does the shop open on Saturdays?,9:00
helmet,Is a helmet included in the rental?,helmet
flat-tyre,What do I do if I get a flat tyre?,+49 30 1234 5678
late-return,What happens if I bring the bike back late?,€10 per hour
`,
  ],
  [
    'workspace.yaml',
    `# The embedded reference service's workspace: who may ask (an account and its credits), and which
# documents each chat assistant answers from. Put your own Markdown in docs/ (globs are allowed).
name: My knowledge base
default_target: { board_id: my-board, chat_id: chatNode-my-assistant }
accounts:
  - id: team
    name: My team
    # A fake key only the local reference service accepts; safe to commit.
    key: kb-team-0000-local
    credits: 1000
boards:
  - id: my-board
    name: Help centre
    account: team
    chats:
      - id: chatNode-my-assistant
        name: Support assistant
        documents: [docs/*.md]
`,
  ],
  [
    'docs/rentals.md',
    `# Renting a bike

## Prices
A city bike costs €25 per day. An e-bike costs €45 per day. Weekly rentals get the seventh day free.

## Deposit
Every rental needs a valid photo ID. The deposit for an e-bike is €300; for a city bike it is €100.
The deposit is returned when the bike comes back undamaged.

## What is included
A helmet and a lock are included in every rental at no extra cost.

## Returning late
A bike returned after closing time costs €10 per hour late, up to the price of one more day.
`,
  ],
  [
    'docs/bookings.md',
    `# Bookings and cancellations

## Booking
Book online or in the shop. A booking holds the bike until 11:00 on the first rental day.

## Cancelling
Cancelling up to the day before the rental is free of charge. Cancelling on the rental day costs
half of the first day's price.

## Discounts
Groups of five or more get 10% off. There is no student discount.
`,
  ],
  [
    'docs/shop-and-repairs.md',
    `# The shop and repairs

## Opening hours
The shop opens at 8:00 on weekdays and at 9:00 on Saturdays; it closes at 19:00. Closed on Sundays.

## A flat tyre or a breakdown
Call the repair line on +49 30 1234 5678 for a flat tyre or a breakdown. A mechanic comes to you
within the city, or you swap the bike at the shop at no cost.
`,
  ],
  [
    '.github/workflows/kbbench.yml',
    `# kbbench in CI: every pull request runs the suite and fails when an answer that passed in the
# committed baseline now fails. Make the baseline once and commit it:
#   kbbench run suite.yaml --out baselines/main && git add baselines/main/run.json baselines/main/results.ndjson
# Against a live service instead of the embedded one: set the secret KBBENCH_API_KEY and the
# variables KBBENCH_BASE_URL, KBBENCH_BOARD and KBBENCH_CHAT (the suite's workspace: is then unused).
# A suite that names no workspace: (a CSV alone) sets WORKSPACE below, else kbbench exits 2.
name: kbbench
on:
  pull_request:
  workflow_dispatch:
env:
  SUITE: suite.yaml
  WORKSPACE: ''
  BASELINE_DIR: baselines/main
  HEAD_DIR: reports/head
jobs:
  kbbench:
    runs-on: ubuntu-latest
    timeout-minutes: 20
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - name: Install kbbench
        run: npm install --global kbbench
      - name: Validate the suite (sends nothing)
        run: kbbench validate "$SUITE"
      - name: Run the suite and compare with the baseline
        env:
          KBBENCH_API_KEY: \${{ secrets.KBBENCH_API_KEY }}
          KBBENCH_BASE_URL: \${{ vars.KBBENCH_BASE_URL }}
          KBBENCH_BOARD: \${{ vars.KBBENCH_BOARD }}
          KBBENCH_CHAT: \${{ vars.KBBENCH_CHAT }}
        run: |
          args=(run "$SUITE" --out "$HEAD_DIR")
          if [ -n "$KBBENCH_BASE_URL" ]; then
            if [ -n "$KBBENCH_BOARD" ]; then args+=(--board "$KBBENCH_BOARD"); fi
            if [ -n "$KBBENCH_CHAT" ]; then args+=(--chat "$KBBENCH_CHAT"); fi
          elif [ -n "$WORKSPACE" ]; then
            args+=(--workspace "$WORKSPACE")
          fi
          if [ -f "$BASELINE_DIR/run.json" ]; then args+=(--baseline "$BASELINE_DIR" --markdown "$HEAD_DIR/compare.md"); fi
          kbbench "\${args[@]}"
      - name: Keep the reports
        if: always()
        uses: actions/upload-artifact@v4
        with:
          name: kbbench-reports
          path: \${{ env.HEAD_DIR }}
`,
  ],
  ['.gitignore', '# Run output of kbbench (a baseline you keep goes to baselines/, which is committed)\nreports/\n'],
];
