from drill.cli import main

raise SystemExit(main())
