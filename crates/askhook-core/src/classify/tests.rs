//! The adversarial table: destructive phrasings that must classify one-way (with the rule that
//! should name them, `*` for any), and benign ones that must stay two-way.

use super::*;

/// (name, fields: question text, header, labels and descriptions…, expected rule or `*`).
const ONE_WAY: &[(&str, &[&str], &str)] = &[
    // rm -rf in every spelling.
    ("rm -rf plain", &["Run rm -rf build/?"], "rm-rf"),
    ("rm -fr", &["Should I rm -fr node_modules?"], "rm-rf"),
    ("rm -r -f", &["rm -r -f ./dist"], "rm-rf"),
    ("rm -f -r", &["ok to rm -f -r tmp"], "rm-rf"),
    ("rm -Rf caps", &["RM -RF /var/data"], "rm-rf"),
    (
        "rm --recursive --force",
        &["rm --recursive --force out"],
        "rm-rf",
    ),
    (
        "rm --force --recursive",
        &["rm --force --recursive out"],
        "rm-rf",
    ),
    (
        "sudo rm -rf",
        &["Proceed with `sudo rm -rf /opt/app`?"],
        "rm-rf",
    ),
    (
        "rm -rf in backticks",
        &[
            "How should we clean up?",
            "Cleanup",
            "`rm -rf target`",
            "Removes the target folder",
        ],
        "rm-rf",
    ),
    ("rm -rf bold", &["**rm -rf** the cache dir?"], "rm-rf"),
    ("rm -rf fullwidth", &["ｒｍ －ｒｆ ｄｉｓｔ"], "rm-rf"),
    (
        "rm -rf zero width",
        &["r\u{200B}m -r\u{200D}f dist"],
        "rm-rf",
    ),
    ("rm -rf en dash", &["rm –rf dist"], "rm-rf"),
    ("rm -rf cyrillic", &["rм -rf dist"], "rm-rf"),
    ("rimraf", &["Use rimraf to clear dist?"], "rm-rf"),
    (
        "powershell remove-item",
        &["Remove-Item -Recurse -Force .\\build"],
        "rm-rf",
    ),
    (
        "shutil rmtree",
        &["Call shutil.rmtree on the output dir?"],
        "rm-rf",
    ),
    ("rm single file", &["Should I rm the lockfile?"], "rm"),
    ("rmdir", &["rmdir old_reports?"], "rm"),
    ("unlink", &["Unlink the socket file?"], "*"),
    // Force-push.
    (
        "push --force",
        &["git push --force origin main?"],
        "force-push",
    ),
    ("push -f", &["git push -f"], "force-push"),
    (
        "push -f at end",
        &["git push origin feature -f"],
        "force-push",
    ),
    (
        "push -uf cluster",
        &["git push -uf origin feature"],
        "force-push",
    ),
    (
        "force-with-lease",
        &["Push with --force-with-lease?"],
        "force-push",
    ),
    (
        "force-with-lease alone",
        &["Use --force-with-lease"],
        "force-push",
    ),
    ("plus refspec", &["git push origin +main"], "force-push"),
    (
        "push --mirror",
        &["git push --mirror backup-remote"],
        "force-push",
    ),
    (
        "force-push hyphenated",
        &["Force-push the branch?"],
        "force-push",
    ),
    ("force push spaced", &["Should I force push?"], "force-push"),
    (
        "force pushing",
        &["Force pushing to main — ok?"],
        "force-push",
    ),
    (
        "force-pushed",
        &["It needs to be force-pushed, go?"],
        "force-push",
    ),
    ("forcepush camel", &["forcePush(branch)?"], "force-push"),
    ("push with force", &["Push it with force?"], "force-push"),
    (
        "only label destructive",
        &[
            "How should we proceed?",
            "Next step",
            "Force-push the rebased branch (Recommended)",
            "Rewrites the remote",
            "Open a new PR",
            "Keeps history",
        ],
        "force-push",
    ),
    (
        "only description destructive",
        &[
            "Which option?",
            "Choice",
            "Update remote",
            "Runs git push --force",
            "Wait",
            "Do nothing",
        ],
        "force-push",
    ),
    ("em dash force", &["git push —force"], "force-push"),
    ("escaped dashes", &["git push \\-\\-force"], "force-push"),
    ("mixed case FORCE", &["GIT PUSH --FORCE?"], "force-push"),
    ("greek o in force", &["git push --fοrce"], "force-push"),
    (
        "zero width in push",
        &["git pu\u{200B}sh --force"],
        "force-push",
    ),
    (
        "soft hyphen in force",
        &["force\u{00AD}-push now?"],
        "force-push",
    ),
    ("math bold push", &["𝐟𝐨𝐫𝐜𝐞-𝐩𝐮𝐬𝐡 the branch"], "force-push"),
    (
        "bidi in command",
        &["git \u{202E}push\u{202C} --force"],
        "force-push",
    ),
    // Hard reset and discarding work.
    ("reset --hard", &["git reset --hard HEAD~3?"], "hard-reset"),
    (
        "hard reset words",
        &["Do a hard reset to the last commit?"],
        "hard-reset",
    ),
    (
        "reset hard order",
        &["Reset hard to upstream"],
        "hard-reset",
    ),
    (
        "reset to origin",
        &["Reset the branch to origin/main?"],
        "hard-reset",
    ),
    ("git clean -fdx", &["git clean -fdx"], "git-clean"),
    ("git clean -xdf", &["Run git clean -xdf?"], "git-clean"),
    ("clean -f -d", &["git clean -f -d"], "git-clean"),
    (
        "clean untracked",
        &["Clean all untracked files?"],
        "git-clean",
    ),
    (
        "discard changes",
        &["Discard your local changes?"],
        "discard-changes",
    ),
    (
        "discarding",
        &["Discarding uncommitted work — proceed?"],
        "discard-changes",
    ),
    (
        "throw away",
        &["Throw away the edits in src/?"],
        "discard-changes",
    ),
    (
        "lose changes",
        &["You will lose unsaved work. Continue?"],
        "discard-changes",
    ),
    (
        "revert uncommitted",
        &["Revert the uncommitted changes?"],
        "discard-changes",
    ),
    (
        "checkout dash dash dot",
        &["git checkout -- ."],
        "discard-changes",
    ),
    (
        "git restore",
        &["git restore src/main.rs?"],
        "discard-changes",
    ),
    (
        "restore dot",
        &["restore . to clean state"],
        "discard-changes",
    ),
    ("wipe working tree", &["Wipe the working tree?"], "*"),
    // History rewrites.
    (
        "rewrite history",
        &["Rewrite history to remove the secret?"],
        "history-rewrite",
    ),
    (
        "rewriting commits",
        &["Rewriting the last 5 commits okay?"],
        "history-rewrite",
    ),
    (
        "filter-branch",
        &["git filter-branch --tree-filter"],
        "history-rewrite",
    ),
    (
        "filter-repo",
        &["Use git filter-repo to purge the file?"],
        "history-rewrite",
    ),
    ("bfg", &["Run BFG on the repo?"], "history-rewrite"),
    (
        "amend pushed",
        &["Amend the already pushed commit?"],
        "history-rewrite",
    ),
    (
        "rebase shared",
        &["Rebase the shared branch?"],
        "history-rewrite",
    ),
    (
        "squash published",
        &["Squash the published commits?"],
        "history-rewrite",
    ),
    // Branches and tags.
    (
        "branch -D",
        &["git branch -D feature/login"],
        "delete-branch",
    ),
    (
        "branch --delete",
        &["git branch --delete old"],
        "delete-branch",
    ),
    (
        "push colon refspec",
        &["git push origin :old-branch"],
        "delete-branch",
    ),
    (
        "push --delete",
        &["git push origin --delete feature"],
        "delete-branch",
    ),
    (
        "delete the branch",
        &["Delete the feature branch?"],
        "delete-branch",
    ),
    (
        "deleting branches",
        &["Deleting merged branches now?"],
        "delete-branch",
    ),
    ("remove tag", &["Remove the v1.0 tag?"], "delete-branch"),
    ("tag -d", &["git tag -d v2.0.0"], "delete-branch"),
    (
        "prune branches",
        &["Prune stale branches?"],
        "delete-branch",
    ),
    // Databases.
    (
        "drop the users table",
        &["Drop the users table?"],
        "drop-table",
    ),
    ("DROP TABLE sql", &["DROP TABLE users;"], "drop-table"),
    ("drop database", &["drop database analytics?"], "drop-table"),
    (
        "dropping tables",
        &["Dropping the old tables now?"],
        "drop-table",
    ),
    ("dropdb", &["dropdb staging"], "drop-table"),
    ("drop column", &["Drop the email column?"], "drop-table"),
    (
        "drop schema cascade",
        &["DROP SCHEMA public CASCADE"],
        "drop-table",
    ),
    (
        "dropTable camel",
        &["knex.schema.dropTable('users')?"],
        "drop-table",
    ),
    ("truncate table", &["TRUNCATE TABLE events"], "truncate"),
    (
        "truncating",
        &["Truncating the audit log, okay?"],
        "truncate",
    ),
    ("delete from sql", &["DELETE FROM orders WHERE 1=1"], "*"),
    ("wipe database", &["Wipe the database and reseed?"], "*"),
    ("reset the database", &["Reset the database?"], "*"),
    ("flushall", &["redis-cli FLUSHALL?"], "wipe"),
    ("clear the table", &["Clear the sessions table?"], "wipe"),
    ("empty the bucket", &["Empty the S3 bucket?"], "*"),
    (
        "restore db from backup",
        &["Restore the database from last night's backup?"],
        "*",
    ),
    (
        "overwrite",
        &["Overwrite the existing config?"],
        "overwrite",
    ),
    (
        "overwriting files",
        &["Overwriting 12 files, continue?"],
        "overwrite",
    ),
    ("clobber", &["Clobber the remote file?"], "overwrite"),
    // Plain deletes in many forms.
    ("delete", &["Delete the logs?"], "delete"),
    ("deleting", &["Deleting old uploads?"], "*"),
    ("deletion", &["Confirm deletion of 40 records"], "delete"),
    ("deleted plural", &["These files will be deleted"], "delete"),
    ("erase", &["Erase the SD card?"], "*"),
    ("remove files", &["Remove the generated files?"], "delete"),
    (
        "removing directories",
        &["Removing the tmp directories — ok?"],
        "delete",
    ),
    ("remove the data", &["Remove all user data?"], "*"),
    ("purge", &["Purge the queue?"], "wipe"),
    ("nuke", &["Nuke the dev environment?"], "*"),
    ("obliterate", &["Obliterate the old records?"], "wipe"),
    ("prune docker", &["docker system prune -a?"], "wipe"),
    ("shred", &["shred secrets.txt"], "rm"),
    (
        "delete header only",
        &["Proceed?", "Delete", "Yes", "", "No", ""],
        "delete",
    ),
    (
        "delete in option description",
        &[
            "What now?",
            "Cleanup",
            "Tidy",
            "Deletes every cached artifact",
            "Skip",
            "",
        ],
        "delete",
    ),
    (
        "de-emphasised delete",
        &["de**le**te the archive?"],
        "delete",
    ),
    ("delete with tag chars", &["de\u{E0020}lete it?"], "delete"),
    ("delete small caps", &["ᴅᴇʟᴇᴛᴇ the folder?"], "delete"),
    ("delete circled", &["ⓓⓔⓛⓔⓣⓔ everything?"], "delete"),
    ("delete accented", &["Délète the files?"], "delete"),
    ("delete combining", &["De\u{0301}lete the files?"], "delete"),
    ("delete cyrillic e", &["Dеlеtе the files?"], "delete"),
    ("delete fullwidth", &["ＤＥＬＥＴＥ the files?"], "delete"),
    (
        "deleteAll camel",
        &["Call deleteAll() on the repo?"],
        "delete",
    ),
    ("delete html tags", &["<b>Delete</b> the bucket?"], "*"),
    ("delete in heading", &["## Delete the cache?"], "delete"),
    ("trash", &["Trash the drafts?"], "delete"),
    // Infrastructure.
    (
        "terraform destroy",
        &["terraform destroy -auto-approve"],
        "infra-destroy",
    ),
    (
        "kubectl delete",
        &["kubectl delete namespace staging?"],
        "infra-destroy",
    ),
    (
        "kubectl delete pods",
        &["kubectl delete pods --all"],
        "infra-destroy",
    ),
    (
        "helm uninstall",
        &["helm uninstall api --namespace prod"],
        "infra-destroy",
    ),
    (
        "terminate instances",
        &["Terminate the EC2 instances?"],
        "infra-destroy",
    ),
    (
        "tear down cluster",
        &["Tear down the cluster?"],
        "infra-destroy",
    ),
    (
        "compose down -v",
        &["docker compose down -v"],
        "infra-destroy",
    ),
    (
        "aws s3 rm",
        &["aws s3 rm s3://bucket --recursive"],
        "infra-destroy",
    ),
    ("pulumi destroy", &["pulumi destroy --yes"], "infra-destroy"),
    ("terraform apply", &["Run terraform apply?"], "infra-apply"),
    (
        "pulumi up",
        &["pulumi up on the main stack?"],
        "infra-apply",
    ),
    (
        "destroy generic",
        &["Destroy the preview environment?"],
        "*",
    ),
    (
        "decommission",
        &["Decommission the legacy service?"],
        "destroy",
    ),
    ("teardown word", &["Teardown the sandbox?"], "destroy"),
    (
        "backfill",
        &["Run the data backfill on all customers?"],
        "bulk-data-change",
    ),
    (
        "bulk update",
        &["Bulk-update all user records?"],
        "bulk-data-change",
    ),
    (
        "sql update set",
        &["Run `UPDATE users SET role='admin'`?"],
        "bulk-data-change",
    ),
    (
        "execute sql",
        &["Execute the SQL script against the replica?"],
        "bulk-data-change",
    ),
    (
        "recreate the index",
        &["Drop and recreate the search index?"],
        "*",
    ),
    ("start over", &["Start over?"], "discard-changes"),
    (
        "submit app store",
        &["Submit the app for App Store review?"],
        "publish",
    ),
    ("buy domain", &["Buy the domain?"], "send-money"),
    (
        "accept terms",
        &["Accept the terms of service on my behalf?"],
        "sign-agreement",
    ),
    (
        "sign contract",
        &["Sign the contract with the vendor?"],
        "sign-agreement",
    ),
    (
        "grant admin",
        &["Grant admin access to the contractor?"],
        "grant-access",
    ),
    ("make owner", &["Make me the owner?"], "grant-access"),
    (
        "branch protection off",
        &["Turn off branch protection?"],
        "disable-protection",
    ),
    (
        "disable 2fa requirement",
        &["Disable the firewall on the box?"],
        "disable-protection",
    ),
    (
        "no-verify",
        &["Commit with --no-verify?"],
        "disable-protection",
    ),
    ("get rid of", &["Get rid of the old backups?"], "delete"),
    ("clean out", &["Clean out the uploads folder?"], "wipe"),
    (
        "squash and push",
        &["Squash all commits on main and push?"],
        "history-rewrite",
    ),
    (
        "release pipeline",
        &["Merge to main and trigger the release pipeline?"],
        "release",
    ),
    (
        "message the customer",
        &["Message the customer on WhatsApp?"],
        "send-message",
    ),
    (
        "expose to internet",
        &["Expose port 5432 to the internet?"],
        "visibility-public",
    ),
    (
        "dns records",
        &["Change the DNS records for example.com?"],
        "dns-change",
    ),
    (
        "point the domain",
        &["Point the domain at the new server?"],
        "dns-change",
    ),
    (
        "transfer domain",
        &["Transfer the domain to another registrar?"],
        "dns-change",
    ),
    (
        "downgrade database",
        &["Downgrade the database to version 12?"],
        "schema-migration",
    ),
    ("chmod -R", &["Run chmod -R 777 / ?"], "chmod-recursive"),
    (
        "chown --recursive",
        &["chown --recursive www-data /srv"],
        "chmod-recursive",
    ),
    (
        "docker rmi",
        &["Run `docker rmi $(docker images -q)`?"],
        "*",
    ),
    (
        "migrations despite test words",
        &["Run the migrations now that the tests pass?"],
        "schema-migration",
    ),
    (
        "migrations with ci word",
        &["Migrations: run them? CI is green"],
        "schema-migration",
    ),
    (
        "apply pending migrations",
        &["Apply the 3 pending migrations before the code review?"],
        "schema-migration",
    ),
    // Credentials.
    (
        "revoke token",
        &["Revoke the GitHub token?"],
        "credential-change",
    ),
    (
        "revoking",
        &["Revoking access for the bot, ok?"],
        "credential-change",
    ),
    (
        "rotate keys",
        &["Rotate the API keys?"],
        "credential-change",
    ),
    (
        "rotate secrets",
        &["Should I rotate all secrets?"],
        "credential-change",
    ),
    (
        "reset password",
        &["Reset the admin password?"],
        "credential-change",
    ),
    (
        "regenerate ssh key",
        &["Regenerate the SSH key?"],
        "credential-change",
    ),
    (
        "invalidate sessions",
        &["Invalidate all sessions?"],
        "credential-change",
    ),
    (
        "delete api key",
        &["Delete the API key?"],
        "credential-change",
    ),
    // Messages and money to people.
    (
        "send email",
        &["Send the email to all customers?"],
        "send-message",
    ),
    (
        "sending emails",
        &["Sending the welcome emails now?"],
        "send-message",
    ),
    (
        "email the team",
        &["Email the team about the outage?"],
        "send-message",
    ),
    (
        "post to slack",
        &["Post the summary to Slack?"],
        "send-message",
    ),
    (
        "notify users",
        &["Notify users of the change?"],
        "send-message",
    ),
    ("send newsletter", &["Send the newsletter?"], "send-message"),
    ("tweet", &["Tweet the release announcement?"], "*"),
    ("send sms", &["Send an SMS to the on-call?"], "send-message"),
    ("send money", &["Send money to the vendor?"], "send-money"),
    ("transfer funds", &["Transfer the funds?"], "send-money"),
    ("refund", &["Refund the customer?"], "send-money"),
    ("pay invoice", &["Pay the invoice now?"], "send-money"),
    ("charge card", &["Charge the card on file?"], "send-money"),
    ("send dollars", &["send $500 to alice"], "send-money"),
    ("payout", &["Trigger the payouts?"], "send-money"),
    // Accounts.
    (
        "delete user account",
        &["Delete the user's account?"],
        "account-change",
    ),
    (
        "cancel subscription",
        &["Cancel the subscription?"],
        "account-change",
    ),
    ("ban users", &["Ban the spam users?"], "account-change"),
    // Migrations.
    (
        "run migrations",
        &["Run the migrations?"],
        "schema-migration",
    ),
    (
        "migrate database",
        &["Migrate the database to the new schema?"],
        "schema-migration",
    ),
    ("db migrate", &["rake db:migrate"], "schema-migration"),
    (
        "manage.py migrate",
        &["python manage.py migrate"],
        "schema-migration",
    ),
    (
        "alembic upgrade",
        &["alembic upgrade head"],
        "schema-migration",
    ),
    (
        "alter table",
        &["ALTER TABLE users ADD COLUMN age int"],
        "schema-migration",
    ),
    (
        "prisma db push",
        &["npx prisma db push"],
        "schema-migration",
    ),
    ("migrating", &["Migrating now?"], "schema-migration"),
    ("schema change", &["Apply the database schema change?"], "*"),
    (
        "migration header",
        &["Run them now?", "Migrations", "Yes", "", "Later", ""],
        "schema-migration",
    ),
    // Deploys, publishing, releases.
    ("deploy to prod", &["Deploy to production?"], "deploy"),
    ("deploying", &["Deploying v2 now?"], "deploy"),
    ("ship it", &["Ship it?"], "deploy"),
    ("roll out", &["Roll out to all users?"], "deploy"),
    ("go live", &["Go live tonight?"], "deploy"),
    ("promote to prod", &["Promote the build to prod?"], "deploy"),
    ("publish npm", &["npm publish?"], "publish"),
    ("cargo publish", &["cargo publish --allow-dirty"], "publish"),
    ("publishing", &["Publishing the crate — go?"], "publish"),
    ("upload pypi", &["Upload the wheel to PyPI?"], "publish"),
    ("twine upload", &["twine upload dist/*"], "publish"),
    (
        "docker push",
        &["docker push ghcr.io/acme/api:latest"],
        "publish",
    ),
    ("push tags", &["git push --tags"], "publish"),
    ("push the tag", &["Push the v1.2.0 tag?"], "publish"),
    ("gh release", &["gh release create v1.0"], "publish"),
    ("release version", &["Release v2.0.0?"], "release"),
    ("cut a release", &["Cut a release now?"], "release"),
    ("releasing", &["Releasing 1.4 to customers?"], "*"),
    (
        "production option",
        &[
            "Which environment?",
            "Target",
            "Staging",
            "",
            "Production",
            "Live traffic",
        ],
        "*",
    ),
    (
        "against prod",
        &["Run the script against prod?"],
        "production",
    ),
    ("push live", &["Push it live?"], "production"),
    // Breaking changes and exposure.
    (
        "breaking change",
        &["This is a breaking change; merge it?"],
        "breaking-change",
    ),
    ("breaking api", &["Ship the breaking API rename?"], "*"),
    (
        "break backwards compat",
        &["This will break backwards compatibility. OK?"],
        "breaking-change",
    ),
    (
        "incompatible",
        &["Make the backwards-incompatible change?"],
        "breaking-change",
    ),
    (
        "major version",
        &["Bump the major version?"],
        "breaking-change",
    ),
    ("drop support", &["Drop support for Node 16?"], "drop"),
    (
        "remove endpoint",
        &["Remove the /v1 endpoint?"],
        "breaking-change",
    ),
    (
        "make repo public",
        &["Make the repo public?"],
        "visibility-public",
    ),
    (
        "public bucket",
        &["Set the bucket ACL to public?"],
        "visibility-public",
    ),
    (
        "open source",
        &["Open-source the project?"],
        "visibility-public",
    ),
    (
        "commit env file",
        &["Commit the .env file?"],
        "expose-secret",
    ),
    (
        "commit secrets",
        &["Commit the secrets to the repo?"],
        "expose-secret",
    ),
    ("log the token", &["Log the token for debugging?"], "*"),
    // Disks.
    ("mkfs", &["mkfs.ext4 /dev/sdb1"], "format-disk"),
    ("format disk", &["Format the external disk?"], "format-disk"),
    ("dd", &["dd if=/dev/zero of=/dev/sda"], "format-disk"),
    // Signals in the wording itself.
    (
        "cannot be undone",
        &["This cannot be undone. Continue?"],
        "irreversible",
    ),
    (
        "can't be undone",
        &["This can't be undone — continue?"],
        "irreversible",
    ),
    (
        "irreversible",
        &["This is irreversible; proceed?"],
        "irreversible",
    ),
    ("permanently", &["Permanently remove the account?"], "*"),
    (
        "destructive",
        &["This is destructive. Go ahead?"],
        "irreversible",
    ),
    ("data loss", &["Accept possible data loss?"], "irreversible"),
    ("no undo", &["There is no undo. Proceed?"], "irreversible"),
    (
        "generic force flag",
        &["npm run sync -- --force"],
        "force-flag",
    ),
    ("cascade flag", &["Run it with --cascade?"], "force-flag"),
    // Plural, -ing and mixed spellings in one breath.
    ("DELETES upper", &["THIS DELETES EVERYTHING"], "delete"),
    ("Wiping", &["Wiping the disk now?"], "*"),
    (
        "Dropping mixed case",
        &["DrOpPiNg ThE tAbLe?"],
        "drop-table",
    ),
    (
        "multi option one bad",
        &[
            "Pick one",
            "Plan",
            "Add tests",
            "",
            "Refactor",
            "",
            "rm -rf the repo",
            "",
        ],
        "rm-rf",
    ),
    (
        "opened to everyone",
        &["Should the storage be opened to everyone?"],
        "visibility-public",
    ),
    // Digits for letters, and words spelled out letter by letter.
    ("leet drop table", &["dr0p the users table?"], "drop-table"),
    (
        "leet force push",
        &["Should I f0rce-push to main?"],
        "force-push",
    ),
    (
        "leet 1 for l",
        &["de1ete the release branch?"],
        "delete-branch",
    ),
    ("leet 1 for i", &["Should I w1pe the disk?"], "*"),
    ("leet mixed", &["trunc4te the 0rders table?"], "*"),
    ("spelled out rm", &["r m -rf build?"], "rm-rf"),
    ("spelled out drop", &["d r o p table users?"], "drop-table"),
    ("dotted drop", &["d.r.o.p table users?"], "drop-table"),
    (
        "dashed delete",
        &["d-e-l-e-t-e the main branch?"],
        "delete-branch",
    ),
    (
        "spelled out and leet",
        &["r m -r f the 0ld backups?"],
        "rm-rf",
    ),
];

/// (name, fields) that must stay two-way.
const TWO_WAY: &[(&str, &[&str])] = &[
    (
        "which database",
        &[
            "Which database should we use?",
            "Database",
            "PostgreSQL (Recommended)",
            "Relational",
            "SQLite",
            "Embedded",
        ],
    ),
    (
        "enable caching",
        &["Enable caching?", "Cache", "Yes", "", "No", ""],
    ),
    ("add a test", &["Add a test for this?"]),
    (
        "tabs or spaces",
        &["Use tabs or spaces?", "Indent", "Tabs", "", "Spaces", ""],
    ),
    (
        "commit style",
        &[
            "Which commit message style?",
            "Commits",
            "Conventional commits",
            "",
            "Free form",
            "",
        ],
    ),
    ("test framework", &["Which test framework: Jest or Vitest?"]),
    ("package manager", &["Use npm, pnpm or yarn?"]),
    ("run tests now", &["Run the tests now?"]),
    ("create a pr", &["Create a pull request?"]),
    ("push branch", &["Push the branch to origin?"]),
    ("rename variable", &["Rename `usr` to `user`?"]),
    ("add logging", &["Add debug logging to the parser?"]),
    ("naming", &["camelCase or snake_case for the new fields?"]),
    ("release build", &["Build in release mode?"]),
    ("cargo release flag", &["Run cargo build --release?"]),
    ("debug or release", &["Debug or release build?"]),
    ("release notes", &["Write the release notes now?"]),
    ("dropdown", &["Use a dropdown or radio buttons?"]),
    ("drop-down hyphen", &["Should the drop-down be searchable?"]),
    ("drop-in replacement", &["Use it as a drop-in replacement?"]),
    (
        "production ready",
        &["Is this library production-ready enough?"],
    ),
    ("production build", &["Use the production build of React?"]),
    ("non-production", &["Only in non-production environments?"]),
    (
        "migrate jest to vitest",
        &["Migrate the tests from Jest to Vitest?"],
    ),
    ("migrate api clients", &["Migrate the API clients to v2?"]),
    (
        "migrate config",
        &["Migrate the ESLint config to the flat format?"],
    ),
    (
        "error message for users",
        &["Improve the error message for users?"],
    ),
    ("clean up code", &["Clean up the code in parser.rs?"]),
    ("chmod plus x", &["chmod +x the script?"]),
    ("admin page", &["Add an admin page?"]),
    ("owner field", &["Make the owner field optional?"]),
    ("batch size", &["Which batch size for the data loader?"]),
    (
        "update readme set",
        &["Update the README to set expectations?"],
    ),
    (
        "matches production",
        &[
            "Which database?",
            "DB",
            "PostgreSQL",
            "Matches production; JSONB for line items.",
            "SQLite",
            "Simpler",
        ],
    ),
    (
        "build from scratch",
        &[
            "Enable the build cache?",
            "Cache",
            "Yes",
            "Faster builds",
            "No",
            "Always build from scratch.",
        ],
    ),
    ("same as prod", &["Use the same Node version as prod?"]),
    ("clear cache", &["Clear the cache and rebuild?"]),
    ("restart server", &["Restart the dev server?"]),
    ("rebase onto main", &["Rebase onto main or merge main in?"]),
    ("stash changes", &["Stash your changes first?"]),
    ("commit now", &["Commit these changes?"]),
    ("open the file", &["Open the file in the editor?"]),
    ("format code", &["Format the code with prettier?"]),
    ("lint", &["Fix the lint warnings?"]),
    ("add dependency", &["Add serde as a dependency?"]),
    ("update readme", &["Update the README with the new flags?"]),
    ("typescript strict", &["Turn on TypeScript strict mode?"]),
    ("retry", &["Retry the failed request?"]),
    ("http send", &["Send the request with a timeout?"]),
    (
        "email provider",
        &["Which email provider: SES or Postmark?"],
    ),
    ("keep going", &["Continue with the refactor?"]),
    ("split pr", &["Split this into two PRs?"]),
    (
        "break into smaller",
        &["Break the change into smaller commits?"],
    ),
    ("live reload", &["Enable live reload?"]),
    ("json schema", &["Update the JSON schema for the config?"]),
    ("import style", &["Use absolute or relative imports?"]),
    ("stack trace", &["Print the stack trace on error?"]),
    ("env var", &["Read the port from an env var?"]),
    ("docs", &["Generate API docs?"]),
    ("benchmark", &["Add a benchmark for the hot path?"]),
    ("error handling", &["Return a Result or panic?"]),
    ("which branch name", &["Name the branch feat/login?"]),
    ("install deps", &["Install the dependencies now?"]),
    ("draft", &["Keep it as a draft PR?"]),
    ("review", &["Request a review from the team?"]),
    ("add index", &["Should lookups use a HashMap?"]),
    ("python version", &["Target Python 3.12?"]),
    ("comment", &["Add doc comments to public items?"]),
    (
        "markdown bold benign",
        &[
            "**Which** approach do you prefer?",
            "Approach",
            "`Option A` (Recommended)",
            "Smaller diff",
            "`Option B`",
            "Cleaner",
        ],
    ),
    ("unicode benign", &["Ｕｓｅ ｔａｂｓ?"]),
    ("zero width benign", &["Add\u{200B} a test?"]),
    ("empty", &[""]),
    ("only punctuation", &["???", "--", "..."]),
    // Digits and single letters that the respelling pass must leave benign.
    ("versions", &["Use Python 3.11 or 3.12?", "3.11", "3.12"]),
    (
        "codecs and buckets",
        &["Encode with h264 or vp9, store in s3?"],
    ),
    (
        "instance types",
        &["m5.large or c7g.xlarge for the runner?"],
    ),
    ("options by letter", &["Option A, B or C?", "A", "B", "C"]),
    (
        "abbreviations",
        &["Use JSON, i.e. the e.g. format, for x y plots?"],
    ),
    ("ids with digits", &["Name the branch feat-1234 or fix-42?"]),
    ("ports", &["Serve on port 8080 or 3000?"]),
    ("dotted initials", &["Ask r.m. the owner, e.g. by mail?"]),
    (
        "openapi for everyone",
        &["Is the OpenAPI doc clear enough for everyone?"],
    ),
    (
        "openai client",
        &["Should the OpenAI client be shared by everyone on the team?"],
    ),
    (
        "hello world across a line in one field",
        &["Open v3, hello\nworld?"],
    ),
];

#[test]
fn destructive_phrasings_are_one_way() {
    let mut failures = Vec::new();
    for (name, fields, rule) in ONE_WAY {
        let got = classify(fields);
        let ok = got.door == Door::OneWay && (*rule == "*" || got.rule == Some(*rule));
        if !ok {
            failures.push(format!(
                "{name}: {fields:?} → {:?} {:?}, want {rule}",
                got.door, got.rule
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} misclassified:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn benign_phrasings_stay_two_way() {
    let mut failures = Vec::new();
    for (name, fields) in TWO_WAY {
        let got = classify(fields);
        if got.door != Door::TwoWay {
            failures.push(format!("{name}: {fields:?} → {:?}", got.rule));
        }
    }
    assert!(
        failures.is_empty(),
        "{} misclassified:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn plain_text_needs_no_respelling() {
    for text in [
        "which database should we use?",
        "add a test for the parser?",
        "use version 3.12 on port 8080?",
        "e.g. json, i.e. lines",
    ] {
        assert_eq!(respell(text, b'l'), None, "{text:?}");
    }
    assert_eq!(respell("dr0p it", b'l').as_deref(), Some("drop it"));
    assert_eq!(respell("k1ll", b'l').as_deref(), Some("klll"));
    assert_eq!(respell("k1ll", b'i').as_deref(), Some("kill"));
    assert_eq!(respell("r m -rf x", b'l').as_deref(), Some("rm -rf x"));
    assert_eq!(respell("d.r.o.p", b'l').as_deref(), Some("drop"));
    // Fields keep their boundaries: a respelled question keeps its options apart.
    let t = Text::new(&["dr0p it?", "yes"]);
    let again = t.respellings();
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].fields_text(), ["drop it?", "yes"]);
}

#[test]
fn the_table_is_big_enough_and_names_are_unique() {
    assert!(ONE_WAY.len() + TWO_WAY.len() >= 150);
    let mut names: Vec<&str> = ONE_WAY
        .iter()
        .map(|c| c.0)
        .chain(TWO_WAY.iter().map(|c| c.0))
        .collect();
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(before, names.len(), "duplicate case names");
}

#[test]
fn every_expected_rule_exists_and_every_rule_is_exercised() {
    let known: Vec<&str> = rule_names().collect();
    for (name, _, rule) in ONE_WAY {
        assert!(
            *rule == "*" || known.contains(rule),
            "{name}: unknown rule {rule}"
        );
    }
    for rule in &known {
        assert!(
            ONE_WAY.iter().any(|c| c.2 == *rule),
            "rule {rule} has no case in the table"
        );
    }
    for name in &known {
        assert!(
            name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
            "{name} is not kebab-case"
        );
    }
}

#[test]
fn explain_shows_the_matched_words() {
    let e = explain(&["How should we proceed?", "`git push --force` (Recommended)"]);
    assert_eq!(e.door_type, Door::OneWay);
    assert_eq!(e.rule, Some("force-push"));
    assert_eq!(e.matched.as_deref(), Some("push --force"));
    let e = explain(&["Enable caching?"]);
    assert_eq!((e.door_type, e.rule, e.matched), (Door::TwoWay, None, None));
}

#[test]
fn door_round_trips() {
    for door in [Door::OneWay, Door::TwoWay] {
        assert_eq!(Door::parse(door.as_str()), Some(door));
        let json = serde_json::to_string(&door).unwrap();
        assert_eq!(json, format!("\"{}\"", door.as_str()));
    }
    assert_eq!(Door::parse("One-Way"), None);
}

#[test]
fn anchors_are_plain_words_of_two_bytes_or_exact() {
    for (name, anchors, _) in RULES {
        for anchor in *anchors {
            let (exact, a) = anchor
                .strip_prefix('=')
                .map_or((false, *anchor), |a| (true, a));
            assert!(
                exact || a.len() >= 2,
                "{name}: prefix anchor {a:?} is shorter than a key"
            );
            assert!(
                a.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
                "{name}: anchor {a:?} can never equal a token"
            );
        }
    }
}

#[test]
fn anchors_never_change_a_verdict_on_the_table() {
    for fields in ONE_WAY
        .iter()
        .map(|c| c.1)
        .chain(TWO_WAY.iter().map(|c| c.1))
    {
        let t = Text::new(fields);
        assert_eq!(
            t.first_match().map(|m| m.0),
            t.first_match_unfiltered().map(|m| m.0),
            "{fields:?}"
        );
    }
}

/// Every word of the table and of the word lists: the vocabulary of the anchor property.
fn vocabulary() -> &'static [String] {
    static WORDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    WORDS.get_or_init(build_vocabulary)
}

fn build_vocabulary() -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for fields in ONE_WAY
        .iter()
        .map(|c| c.1)
        .chain(TWO_WAY.iter().map(|c| c.1))
    {
        let t = Text::new(fields);
        words.extend((0..t.len()).map(|i| t.word(i).to_owned()));
    }
    for list in [
        RM,
        PUSH,
        DB_OBJ,
        DATA_STEMS,
        DATA_WORDS,
        WIPE_OBJ,
        INFRA,
        CRED,
        CRED_VERBS,
        MESSAGE_VERBS,
        RECIPIENTS,
        POST_TARGETS,
        MONEY,
        REGISTRY,
        PROD,
        SCHEMA_CTX,
        HISTORY_SHARED,
        UNCOMMITTED,
    ] {
        words.extend(list.iter().map(|w| w.to_string()));
    }
    words.sort();
    words.dedup();
    words
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Skipping rules by their anchors never changes a verdict: random sentences over the
        /// vocabulary, with flag dashes and prefixes, classify the same either way.
        #[test]
        fn anchors_never_change_a_verdict(
            picks in proptest::collection::vec((any::<prop::sample::Index>(), 0..6usize), 1..10),
        ) {
            let vocab = vocabulary();
            let mut text = String::new();
            for (pick, sep) in picks {
                text.push_str([" ", " -", " --", " +", " :", " ."][sep]);
                text.push_str(&vocab[pick.index(vocab.len())]);
            }
            let t = Text::new(&[&text]);
            prop_assert_eq!(
                t.first_match().map(|m| m.0),
                t.first_match_unfiltered().map(|m| m.0),
                "{}", text
            );
        }
    }

    const INVISIBLE: &[char] = &[
        '\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{00AD}', '\u{202E}',
        '\u{202C}', '\u{FE0F}',
    ];

    fn one_way_case() -> impl Strategy<Value = usize> {
        0..ONE_WAY.len()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Sprinkling invisible characters anywhere never turns a one-way door two-way.
        #[test]
        fn invisible_characters_never_hide_a_one_way_door(
            case in one_way_case(),
            inserts in proptest::collection::vec((any::<prop::sample::Index>(), 0..INVISIBLE.len()), 1..8),
        ) {
            let (name, fields, _) = ONE_WAY[case];
            let mut changed: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
            for (at, which) in inserts {
                let field = &mut changed[at.index(fields.len())];
                let chars: Vec<char> = field.chars().collect();
                let pos = at.index(chars.len() + 1);
                let mut s: String = chars[..pos].iter().collect();
                s.push(INVISIBLE[which]);
                s.extend(&chars[pos..]);
                *field = s;
            }
            let refs: Vec<&str> = changed.iter().map(String::as_str).collect();
            prop_assert_eq!(classify(&refs).door, Door::OneWay, "{}: {:?}", name, refs);
        }

        /// Changing the case of any letters never turns a one-way door two-way.
        #[test]
        fn case_never_hides_a_one_way_door(case in one_way_case(), mask in any::<u64>()) {
            let (name, fields, _) = ONE_WAY[case];
            let changed: Vec<String> = fields
                .iter()
                .map(|f| {
                    f.chars()
                        .enumerate()
                        .map(|(i, c)| if mask >> (i % 64) & 1 == 1 { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() })
                        .collect()
                })
                .collect();
            let refs: Vec<&str> = changed.iter().map(String::as_str).collect();
            prop_assert_eq!(classify(&refs).door, Door::OneWay, "{}: {:?}", name, refs);
        }

        /// Wrapping in markdown (backticks, bold, strike) never turns a one-way door two-way.
        #[test]
        fn markdown_never_hides_a_one_way_door(case in one_way_case(), wrap in 0..4usize) {
            let (name, fields, _) = ONE_WAY[case];
            let (l, r) = [("`", "`"), ("**", "**"), ("~~", "~~"), ("```\n", "\n```")][wrap];
            let changed: Vec<String> = fields.iter().map(|f| format!("{l}{f}{r}")).collect();
            let refs: Vec<&str> = changed.iter().map(String::as_str).collect();
            prop_assert_eq!(classify(&refs).door, Door::OneWay, "{}: {:?}", name, refs);
        }

        /// Adding more text (another option) never turns a one-way door two-way.
        #[test]
        fn more_fields_never_hide_a_one_way_door(case in one_way_case(), extra in "[ -~]{0,40}") {
            let (name, fields, _) = ONE_WAY[case];
            let mut refs: Vec<&str> = fields.to_vec();
            refs.push(&extra);
            prop_assert_eq!(classify(&refs).door, Door::OneWay, "{}: {:?}", name, refs);
        }

        /// Arbitrary input never panics.
        #[test]
        fn never_panics(fields in proptest::collection::vec(any::<String>(), 0..6)) {
            let refs: Vec<&str> = fields.iter().map(String::as_str).collect();
            let _ = explain(&refs);
        }
    }
}
