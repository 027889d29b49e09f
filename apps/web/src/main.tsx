import './app/global.css';
import { bootstrap } from './app/bootstrap';

void bootstrap();
