#!/usr/bin/env bash
# Two small students for experiments/game/transfer.yaml, made with `arena train` from
# ../shared/data/parallel-toy in a few CPU minutes each (one thread, nice'd).  They are
# weak models that differ from the toy teacher in a controlled way:
#   models/game-student-parallel: toy-student preset (d_model 128, 2+2 layers) on the
#                                 parallel corpus itself, seed 1;
#   models/game-student-distilled: the same size on the toy teacher's beam-5 translations
#                                 (sequence-level distillation) of 4,000 training sources, seed 2.
# Models are not committed (models/ is ignored); run this from the repository root:
#   bash experiments/game/train_students.sh
# Training is deterministic given --seed and --max-steps; --minutes only caps the time.
set -euo pipefail
MIN=${MINUTES:-6}
STEPS=${STEPS:-400}
arena train distill --teacher ../shared/models/toy-marian-en-de/hf --out models/game-distilled \
    --max-pairs 4000 --max-source-tokens 48 --threads 1 --no-progress
arena train student --data models/game-distilled --out models/game-student-distilled --seed 2 \
    --minutes "$MIN" --max-steps "$STEPS" --batch-tokens 2048 --warmup 100 --threads 1 --limit 200 --no-progress
arena train teacher --preset toy-student --out models/game-student-parallel --seed 1 \
    --minutes "$MIN" --max-steps "$STEPS" --batch-tokens 2048 --warmup 100 --threads 1 --limit 200 --no-progress
