import Type from 'typebox';
import { Maybe, Resource, ResourceBody, ToOne } from '../jsonapi/schemas.js';

export const CommentBody = ResourceBody('comments', { body: Maybe(Type.String()) });

export const CommentResource = Resource('comments', { body: Type.String() }, { 'run-event': ToOne('run-events') });
