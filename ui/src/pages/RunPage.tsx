import { useState, type SyntheticEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { addComment } from '../api/runs';
import { useProject, useRun, useRunComments, useWorkspace } from '../api/hooks';
import { queryKeys } from '../api/queryKeys';
import { related } from '../api/types';
import { EffectiveVariables } from '../components/EffectiveVariables';
import { describedBy, FieldError, FormError, LoadError } from '../components/errors';
import { Pager } from '../components/Pager';
import { useOrganizationInNav } from '../components/frame';
import { useAnnounce } from '../components/frame';
import { Listing } from '../components/Listing';

const BODY = '/data/attributes/body';

/** A run: its status and message, the variables stored with it, its comments. */
export function RunPage() {
  const id = useParams().id!;
  const document = useRun(id);
  const run = document.data?.data;
  const workspaceId = run ? related(run, 'workspace')?.id : undefined;
  const workspace = useWorkspace(workspaceId ?? null);
  useOrganizationInNav(workspace.data ? related(workspace.data.data, 'organization')?.id : undefined);
  const projectId = workspace.data ? related(workspace.data.data, 'project')?.id : undefined;
  const project = useProject(projectId ?? null);
  if (document.error) {
    return (
      <>
        <h1 tabIndex={-1}>Run</h1>
        <LoadError error={document.error} what="run" />
      </>
    );
  }
  if (!run) return <h1 tabIndex={-1}>Loading…</h1>;
  return (
    <>
      {workspaceId && (
        <p className="crumbs">
          <Link to={`/workspaces/${workspaceId}`}>Workspace {workspace.data?.data.attributes.name ?? workspaceId}</Link>
        </p>
      )}
      <h1 tabIndex={-1}>Run {run.id}</h1>
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <span className="badge">{run.attributes.status}</span>
        </dd>
        <dt>Message</dt>
        <dd>{run.attributes.message}</dd>
        <dt>Created</dt>
        <dd>{new Date(run.attributes['created-at']).toLocaleString()}</dd>
      </dl>
      <EffectiveVariables
        of={{ owner: 'runs', id }}
        place={{ workspaceId, projectId, projectName: project.data?.data.attributes.name }}
        title="Variables stored with the run"
      />
      <Comments id={id} canComment={run.attributes.permissions['can-comment']} />
    </>
  );
}

function Comments({ id, canComment }: { id: string; canComment: boolean }) {
  const [page, setPage] = useState(1);
  const list = useRunComments(id, page);
  const [body, setBody] = useState('');
  const client = useQueryClient();
  const announce = useAnnounce();
  const add = useMutation({
    mutationFn: () => addComment(id, body),
    onSuccess: async () => {
      setBody('');
      announce('Comment added');
      await client.invalidateQueries({ queryKey: queryKeys.runs.comments(id) });
    },
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <section aria-labelledby="comments-title">
      <h2 id="comments-title">Comments</h2>
      <Listing list={list} what="comments" empty="No comments yet.">
        {(items) => (
          <ol className="comments" aria-label="Comments">
            {items.map((comment) => (
              <li key={comment.id}>{comment.attributes.body}</li>
            ))}
          </ol>
        )}
      </Listing>
      <Pager pagination={list.data?.meta.pagination} onPage={setPage} label="Comments" />
      {canComment && (
        <form onSubmit={submit} aria-label="Add a comment">
          <div className="field">
            <label htmlFor="comment-body">Comment</label>
            <textarea
              id="comment-body"
              rows={3}
              value={body}
              onChange={(e) => setBody(e.target.value)}
              {...describedBy(add.error, BODY, 'comment-error')}
            />
            <FieldError error={add.error} pointer={BODY} id="comment-error" />
          </div>
          <FormError error={add.error} fields={[BODY]} />
          <button type="submit" disabled={add.isPending}>
            Add comment
          </button>
        </form>
      )}
    </section>
  );
}
